import CityPackTestSupport
import Foundation
import Testing

/// What `import CityPackKit` shows an app: the public declarations of CityPackKit and of the two modules it
/// re-exports (CityPackFormat, CityPackGeometry), read from the built modules by the toolchain's
/// `swift-symbolgraph-extract` (synthesized members left out), and compared line for line with the listing
/// checked in at `docs/api/CityPackKit.txt`. A change to the app API therefore shows in review as a diff of that
/// file (`RECORD_GOLDENS=1` or `scripts/generate` rewrites it). Everything else the CLI, the compiler and the
/// tools share is `package`: visible inside this package, invisible to apps.
@Suite struct PublicAPITests {
    static let listing = TestPaths.root.appendingPathComponent("docs/api/CityPackKit.txt")
    static let modules = ["CityPackKit", "CityPackFormat", "CityPackGeometry"]

    /// The toolchain's symbol graph extractor: beside `swift` on the PATH, or beside the running test's toolchain.
    static let extractor: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swift-symbolgraph-extract" } + ["/opt/swift/usr/bin/swift-symbolgraph-extract"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The folder of the built `.swiftmodule` files of this test run (`.build/<triple>/debug/Modules`).
    static let modulesFolder: URL? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("CityPackKit.swiftmodule").path) { return candidate }
            dir.deleteLastPathComponent()
        }
        let fallback = TestPaths.root.appendingPathComponent(".build/debug/Modules")
        return FileManager.default.fileExists(atPath: fallback.appendingPathComponent("CityPackKit.swiftmodule").path) ? fallback : nil
    }()

    /// One line per public symbol: module, path, kind and declaration, sorted.
    static func extract() throws -> [String] {
        guard let extractor, let modulesFolder else { return [] }
        let out = try TestPaths.temporaryDirectory("api")
        defer { try? FileManager.default.removeItem(at: out) }
        let cModules = (try FileManager.default.contentsOfDirectory(atPath: TestPaths.root.appendingPathComponent("Sources").path))
            .filter { $0.hasPrefix("CCityPack") }.sorted()
            .flatMap { ["-I", TestPaths.root.appendingPathComponent("Sources/\($0)").path] }
        #if arch(x86_64)
        let triple = "x86_64-unknown-linux-gnu"
        #else
        let triple = "aarch64-unknown-linux-gnu"
        #endif
        var lines: [String] = []
        for module in modules {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: extractor)
            p.arguments = ["-module-name", module, "-I", modulesFolder.path] + cModules + [
                "-target", triple, "-output-dir", out.path, "-minimum-access-level", "public", "-skip-synthesized-members",
            ]
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            let message = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(module): \(String(decoding: message, as: UTF8.self))")
            for file in try FileManager.default.contentsOfDirectory(atPath: out.path) where file.hasPrefix(module) {
                let data = try Data(contentsOf: out.appendingPathComponent(file))
                try FileManager.default.removeItem(at: out.appendingPathComponent(file))
                guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let symbols = graph["symbols"] as? [[String: Any]]
                else { continue }
                for symbol in symbols {
                    let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                    let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?").replacingOccurrences(of: "swift.", with: "")
                    let declaration = (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                        .map { $0["spelling"] as? String ?? "" }.joined()
                        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                    lines.append("\(module)\t\(path)\t\(kind)\t\(declaration)")
                }
            }
        }
        return Array(Set(lines)).sorted()
    }

    @Test(.enabled(if: extractor != nil && modulesFolder != nil, "needs swift-symbolgraph-extract and the built modules (swift test provides both)"))
    func theAppAPIIsTheCheckedInListing() throws {
        let lines = try Self.extract()
        let body = lines.joined(separator: "\n") + "\n"
        let header = """
            # Generated by PublicAPITests (RECORD_GOLDENS=1 swift test --filter PublicAPITests, or scripts/generate).
            # The public API of `import CityPackKit`: CityPackKit and the CityPackFormat and CityPackGeometry
            # declarations it re-exports, one symbol per line (module, path, kind, declaration); \(lines.count) symbols.

            """
        let text = header + body
        if RecordMode.isOn(RecordMode.goldens) {
            try FileManager.default.createDirectory(at: Self.listing.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: Self.listing, atomically: true, encoding: .utf8)
            RecordMode.recorded("docs/api/CityPackKit.txt", by: RecordMode.goldens)
            return
        }
        let stored = (try? String(contentsOf: Self.listing, encoding: .utf8)) ?? ""
        let storedLines = Set(stored.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        let added = lines.filter { !storedLines.contains($0) }
        let removed = storedLines.subtracting(lines).sorted()
        #expect(added.isEmpty && removed.isEmpty,
                "the app API changed: review, then RECORD_GOLDENS=1 swift test --filter PublicAPITests\nadded:\n\(added.joined(separator: "\n"))\nremoved:\n\(removed.joined(separator: "\n"))")
        #expect(lines.count >= 100, "the extractor found only \(lines.count) symbols")
    }

    /// The pack format's internals are not app API: the schema's tables and columns, manifests, deltas, patches,
    /// the web flavour, the proximity index and geohash cells, signatures and sizes stay `package`.
    @Test(.enabled(if: extractor != nil && modulesFolder != nil, "needs swift-symbolgraph-extract and the built modules (swift test provides both)"))
    func formatInternalsAreNotPublic() throws {
        let lines = try Self.extract()
        let internals = ["Manifest", "ManifestPatch", "PackDelta", "WebFlavour", "ProximityIndex", "Geohash", "GeohashCover",
                         "DocumentSignature", "PackSizes", "TimetableCoding", "PackDiff", "PackVerifier", "PackInstaller", "PackOpener"]
        for line in lines {
            let path = line.split(separator: "\t")[1]
            let top = path.split(separator: ".").first.map(String.init) ?? ""
            #expect(!internals.contains(top), "\(line)")
            if top == "PackSchema" {
                #expect(path == "PackSchema" || path == "PackSchema.formatVersion" || path.hasPrefix("PackSchema.Wheelchair"), "\(line)")
            }
        }
    }
}
