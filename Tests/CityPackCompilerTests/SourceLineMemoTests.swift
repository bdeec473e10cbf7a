import CityPackCache
import CityPackDiagnostics
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

// @testable: the memo of excerpt lines and the digest memo are internal to the compiler.
@testable import CityPackCompiler

/// The excerpt lines kept in the build cache (`source-lines.entry`): used while the file's digest is vouched for
/// by its settled stat facts, read again when the file or the lines asked for change, and ignored when damaged.
@Suite(.serialized) struct SourceLineMemoTests {
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1e9) }

    /// Vouches for `path` as it is now with the made-up digest `sha256`, as a settled fact of an earlier process.
    static func plant(_ path: String, sha256: String) {
        DigestMemo.forget(path)
        var fact = DigestMemo.statFacts(path)!
        fact.hashedAt = now + 10_000_000_000
        fact.digest = FileDigest(bytes: 1, sha256: sha256)
        DigestMemo.adopt([fact])
    }

    static func text(_ lines: [Int: [UInt8]]) -> [Int: String] { lines.mapValues { String(decoding: $0, as: UTF8.self) } }

    /// A file `name` holding `text` in a new folder, vouched for as "planted", with a writable memo under `out`.
    static func setUp(_ name: String, _ text: String) throws -> (dir: URL, path: String, output: String) {
        let dir = try TestPaths.temporaryDirectory("source-lines")
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let output = dir.appendingPathComponent("out").path
        plant(path, sha256: "planted")
        SourceLineMemo.use(outputDirectory: output, cityID: "c", writable: true)
        return (dir, path, output)
    }

    static func tearDown(_ dir: URL) {
        try? FileManager.default.removeItem(at: dir)
        SourceLineMemo.use(outputDirectory: nil, cityID: "", writable: false)
    }

    @Test func linesComeFromTheMemoUntilTheFileOrTheLinesAskedChange() throws {
        let (dir, path, output) = try Self.setUp("city.osm", "one\ntwo\nthree\n")
        defer { Self.tearDown(dir) }
        // A miss reads the file and stores what it read (a line past the end as absent).
        #expect(Self.text(SourceLines.read(file: path, lines: [2, 9])) == [2: "two"])
        // Stored lines planted for the same digest show that the file is not read again, also by a new process.
        SourceLineMemo.remember(path, sha256: "planted", wanted: [2], lines: [2: Array("memo".utf8)])
        SourceLineMemo.use(outputDirectory: output, cityID: "c", writable: true)
        #expect(Self.text(SourceLines.read(file: path, lines: [2, 9])) == [2: "memo"])
        // A line not asked before is read from the file.
        #expect(Self.text(SourceLines.read(file: path, lines: [1, 2])) == [1: "one", 2: "two"])
        // Other bytes (another digest): read again.
        SourceLineMemo.remember(path, sha256: "planted", wanted: [3], lines: [3: Array("memo".utf8)])
        Self.plant(path, sha256: "edited")
        #expect(Self.text(SourceLines.read(file: path, lines: [3])) == [3: "three"])
        // A file not vouched for (no settled facts) is always read.
        DigestMemo.forget(path)
        #expect(Self.text(SourceLines.read(file: path, lines: [1])) == [1: "one"])
        // Without a cache (`--no-cache`) the memo is not used.
        Self.plant(path, sha256: "edited")
        SourceLineMemo.remember(path, sha256: "edited", wanted: [1], lines: [1: Array("memo".utf8)])
        SourceLineMemo.use(outputDirectory: nil, cityID: "c", writable: false)
        #expect(Self.text(SourceLines.read(file: path, lines: [1])) == [1: "one"])
        DigestMemo.forget(path)
    }

    @Test func aDamagedEntryIsIgnoredAndAReadOnlyMemoWritesNothing() throws {
        let (dir, path, output) = try Self.setUp("stops.txt", "stop_id\nS1\n")
        defer { Self.tearDown(dir) }
        SourceLineMemo.remember(path, sha256: "planted", wanted: [2], lines: [2: Array("memo".utf8)])
        let entry = StageCache(outputDirectory: output, cityID: "c", bag: DiagnosticBag()).path(SourceLineMemo.entry)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: entry))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: entry))
        SourceLineMemo.use(outputDirectory: output, cityID: "c", writable: false)
        #expect(Self.text(SourceLines.read(file: path, lines: [2])) == [2: "S1"])
        // Read-only (a build with errors): the damaged entry stays as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == bytes)
        DigestMemo.forget(path)
    }
}
