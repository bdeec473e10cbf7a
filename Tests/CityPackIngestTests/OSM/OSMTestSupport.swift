import CityPackDiagnostics
import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

/// Text with position markers (1️⃣ … 9️⃣) removed; each marker's 1-based line and character column kept.
struct MarkedXML {
    static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
    var text = ""
    var positions: [String: (line: Int, column: Int)] = [:]

    init(_ marked: String) {
        var line = 1
        var column = 1
        var rest = Substring(marked)
        outer: while let c = rest.first {
            for m in Self.markers where rest.hasPrefix(m) {
                positions[m] = (line, column)
                rest = rest.dropFirst(m.count)
                continue outer
            }
            text.append(c)
            rest = rest.dropFirst()
            if c == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
    }

    subscript(_ marker: String) -> (line: Int, column: Int) { positions[marker] ?? (0, 0) }
}

enum OSMTest {
    /// The repository's default profile.
    static let profile: TemplatePOIProfile = {
        do {
            return try TemplatePOIProfile.load(templatesDirectory: TestPaths.root.appendingPathComponent("templates"))
        } catch {
            fatalError("default profile does not load: \(error)")
        }
    }()

    /// Reads `xml` written to a temporary `name`, returning the result and the bag.
    static func read(
        _ xml: String, name: String = "test.osm", options: OSMReadOptions = .init(), bag: DiagnosticBag = DiagnosticBag()
    ) throws -> (OSMIngestResult, DiagnosticBag) {
        let dir = try TestPaths.temporaryDirectory("osm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(name)
        try Data(xml.utf8).write(to: url)
        return try read(files: [url.path], options: options, bag: bag)
    }

    /// Reads real files; display paths are the last path components.
    static func read(
        files: [String], options: OSMReadOptions = .init(), bag: DiagnosticBag = DiagnosticBag()
    ) throws -> (OSMIngestResult, DiagnosticBag) {
        let reader = OSMReader(profile: profile, bag: bag, options: options)
        for f in files {
            try reader.read(file: f, displayPath: (f as NSString).lastPathComponent)
        }
        return (reader.finish(), bag)
    }

    /// `line:col code` strings for compact, exact comparisons.
    static func summary(_ bag: DiagnosticBag) -> [String] {
        bag.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.code)" }
    }

    static func shared(_ path: String) -> String? {
        guard let url = TestPaths.sharedData?.appendingPathComponent(path),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url.path
    }
}
