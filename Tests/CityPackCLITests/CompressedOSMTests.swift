import CityPackTestSupport
import Foundation
import Testing

/// `.osm.bz2` sources (issue 33, point 1): read like `.osm.gz`, with the same bounds, through the binary.
@Suite(.serialized, .needs(OutsideTools.bzip2)) struct CompressedOSMTests {
    static let monaco = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz").path

    /// Runs `script` with /bin/sh in `folder`, failing the test on a non-zero exit.
    static func shell(_ script: String, in folder: URL) throws {
        let r = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], cwd: folder)
        #expect(r.status == 0, "\(script): \(r.stderr)")
    }

    /// `init` then `build` of one OSM file; the build's result.
    static func build(_ osm: String, in work: URL, name: String, extraYAML: String = "") throws -> CLIRunner.Result {
        let city = work.appendingPathComponent(name)
        let initRun = try CLIRunner.runBinary(
            ["init", city.path, "--osm", osm, "--name", name, "--locales", "en", "--bbox", "7.40,43.72,7.45,43.76"], cwd: work)
        #expect(initRun.status == 0, "init: \(initRun.stderr)")
        if !extraYAML.isEmpty {
            let file = city.appendingPathComponent("city.yaml")
            try (String(contentsOf: file, encoding: .utf8) + extraYAML).write(to: file, atomically: true, encoding: .utf8)
        }
        return try CLIRunner.runBinary(["build", city.path, "--output", work.appendingPathComponent("out").path], cwd: work)
    }

    /// The `built …: N POIs from N nodes, N ways` part of a build's summary line.
    static func counts(_ stderr: String) -> String? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("built ") }),
              let colon = line.firstIndex(of: ":"), let arrow = line.range(of: " → ") else { return nil }
        return String(line[line.index(after: colon)..<arrow.lowerBound])
    }

    /// A bzip2 extract, and one written as two concatenated streams (pbzip2, lbzip2), give the POIs, nodes and
    /// ways of the same extract gzip'd, and diagnostics show the XML text, not compressed bytes.
    @Test func bzip2BuildsLikeGzip() throws {
        let work = try TestPaths.temporaryDirectory("bz2")
        defer { try? FileManager.default.removeItem(at: work) }
        try Self.shell("gzip -dc '\(Self.monaco)' > m.osm && bzip2 -k m.osm && head -c 3000000 m.osm | bzip2 > two.osm.bz2 "
            + "&& tail -c +3000001 m.osm | bzip2 >> two.osm.bz2", in: work)
        let gz = try Self.build(Self.monaco, in: work, name: "gz")
        let bz = try Self.build(work.appendingPathComponent("m.osm.bz2").path, in: work, name: "bz")
        let two = try Self.build(work.appendingPathComponent("two.osm.bz2").path, in: work, name: "two")
        for r in [gz, bz, two] { #expect(r.status == 0, "\(r.stderr)") }
        let expected = try #require(Self.counts(gz.stderr))
        #expect(expected.contains("495 POIs from 25423 nodes, 4106 ways"), "\(expected)")
        #expect(Self.counts(bz.stderr) == expected)
        #expect(Self.counts(two.stderr) == expected)
        // The first warning's source line is the XML element, decompressed.
        #expect(bz.stderr.contains(#"m.osm.bz2:1959:3: warning: "#), "\(bz.stderr)")
        #expect(bz.stderr.contains(#" 1959 |   <node id="274499413""#), "\(bz.stderr)")
    }

    /// A truncated bzip2 file is one located `osm.xml_malformed` naming bzip2, and more XML after decompression
    /// than the city's `limits: { file_size }` stops reading with `osm.limit_exceeded`, as for gzip.
    @Test func bzip2DamageAndBounds() throws {
        let work = try TestPaths.temporaryDirectory("bz2-bad")
        defer { try? FileManager.default.removeItem(at: work) }
        try Self.shell("gzip -dc '\(Self.monaco)' | bzip2 > m.osm.bz2 && head -c 300000 m.osm.bz2 > cut.osm.bz2", in: work)
        let cut = try Self.build(work.appendingPathComponent("cut.osm.bz2").path, in: work, name: "cut")
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("error: compressed data is truncated or corrupt (bzip2: the file ends inside a compressed stream) [osm.xml_malformed]"),
            "\(cut.stderr)")
        #expect(!cut.stderr.contains("Document is empty"), "\(cut.stderr)")
        let size = try #require(FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("m.osm.bz2").path)[.size] as? Int)
        let bounded = try Self.build(work.appendingPathComponent("m.osm.bz2").path, in: work, name: "bounded",
            extraYAML: "limits: { file_size: \(size * 2) }\n")
        #expect(bounded.status == 1)
        #expect(bounded.stderr.contains("bytes of XML after decompression; reading stopped [osm.limit_exceeded]"), "\(bounded.stderr)")
    }
}
