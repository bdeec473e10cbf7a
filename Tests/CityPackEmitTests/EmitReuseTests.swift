import CityPackEmit
import CityPackFormat
import CityPackModel
import CityPackStorage
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// The emit step's reusable pieces (``EmitReuse``): the base database, the web parts made from it and the pack's
/// gzip chunks give the same bytes as a build without them, are checked before use, and an edit of one card
/// recompresses only the chunks it touches.
@Suite struct EmitReuseTests {
    /// A city big enough for a pack of several gzip chunks (512 KiB of database each).
    static func input(cardTitle: String, copyText: String = "Download {city}") throws -> PackInput {
        var input = try EditorialPackTests.input(copyText: copyText)
        input.editorial.cards[0].title = ["en": cardTitle, "de": "Toiletten"]
        input.pois = (0..<12_000).map(poi)
        return input
    }

    static func poi(_ i: Int) -> POI {
        let lat: Double = 43.72 + Double(i % 80) * 0.0005
        let lon: Double = 7.40 + Double(i / 80) * 0.0005
        let name = "Toilet number \(i) on street \(i % 97)"
        let tags: [String: String] = ["opening_hours": "Mo-Su \(i % 24):00-23:00", "operator": "City \(i % 13)"]
        return POI(
            ref: OSMRef(.node, Int64(100 + i)), coordinate: Coordinate(lat: lat, lon: lon), category: "toilet", name: name,
            localizedNames: ["de": "Toilette \(i)"], tags: tags, location: EditorialPackTests.here)
    }

    /// Every file under `dir` but the pieces, by path.
    static func files(_ dir: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: dir.path)
        while let rel = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = dir.path + "/" + rel
            guard !rel.hasPrefix("pieces"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            out[rel] = FileManager.default.contents(atPath: path)
        }
        return out
    }

    /// The same two releases (a card's title edited in between), with and without pieces to reuse.
    static func twoReleases(_ dir: URL, reuse: EmitReuse?, damage: (() throws -> Void)? = nil) throws -> EmitResult {
        var options = EmitOptions()
        options.reuse = reuse
        _ = try PackEmitter.emit(try input(cardTitle: "Toilets"), outputDirectory: dir.appendingPathComponent("out").path, options: options)
        try damage?()
        return try PackEmitter.emit(try input(cardTitle: "Toilets!"), outputDirectory: dir.appendingPathComponent("out").path, options: options)
    }

    @Test func reusedPiecesGiveTheBytesOfABuildWithout() throws {
        let with = try TestPaths.temporaryDirectory("emit-reuse")
        let without = try TestPaths.temporaryDirectory("emit-no-reuse")
        defer {
            try? FileManager.default.removeItem(at: with)
            try? FileManager.default.removeItem(at: without)
        }
        let pieces = with.appendingPathComponent("pieces").path
        let reuse = EmitReuse(directory: pieces, baseKey: "k1")
        // Compressed chunks an earlier version kept: removed (the pack is compressed whole).
        try FileManager.default.createDirectory(atPath: pieces + "/gz", withIntermediateDirectories: true)
        try Data("old chunk".utf8).write(to: URL(fileURLWithPath: pieces + "/gz/old-9"))
        let result = try Self.twoReleases(with, reuse: reuse)
        _ = try Self.twoReleases(without, reuse: nil)
        #expect(result.changed && result.manifest.dataVersion == 2)
        let a = Self.files(with), b = Self.files(without)
        #expect(a.keys.sorted() == b.keys.sorted())
        #expect(a == b, "\(a.keys.filter { a[$0] != b[$0] }.sorted())")
        #expect(reuse.notes.isEmpty)
        // The base and the web parts made from it are kept.
        let kept = try FileManager.default.contentsOfDirectory(atPath: pieces).sorted()
        #expect(kept == ["base.entry", "web.entry"])
    }

    /// Damaged pieces are named in the notes and made again; the outputs are still a clean build's.
    @Test func damagedPiecesAreIgnored() throws {
        let with = try TestPaths.temporaryDirectory("emit-reuse-damaged")
        let without = try TestPaths.temporaryDirectory("emit-no-reuse-damaged")
        defer {
            try? FileManager.default.removeItem(at: with)
            try? FileManager.default.removeItem(at: without)
        }
        let pieces = with.appendingPathComponent("pieces").path
        let reuse = EmitReuse(directory: pieces, baseKey: "k1")
        _ = try Self.twoReleases(with, reuse: reuse) {
            func flip(_ path: String) throws {
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                bytes[bytes.count / 2] ^= 0xFF
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            try flip(pieces + "/base.entry")
            try flip(pieces + "/web.entry")
        }
        _ = try Self.twoReleases(without, reuse: nil)
        #expect(Self.files(with) == Self.files(without))
        // The base, and the web parts made from it; nothing else.
        let named = reuse.notes.map { ($0.path as NSString).lastPathComponent }.sorted()
        #expect(named == ["base.entry", "web.entry"], "\(reuse.notes)")
    }

    /// Another base key (the sources changed) does not take the stored base, silently.
    @Test func anotherBaseKeyWritesTheBase() throws {
        let dir = try TestPaths.temporaryDirectory("emit-reuse-key")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pieces = dir.appendingPathComponent("pieces").path
        var options = EmitOptions()
        options.reuse = EmitReuse(directory: pieces, baseKey: "k1")
        _ = try PackEmitter.emit(try Self.input(cardTitle: "A"), outputDirectory: dir.appendingPathComponent("out").path, options: options)
        var moved = try Self.input(cardTitle: "A")
        moved.pois.removeLast()
        options.reuse = EmitReuse(directory: pieces, baseKey: "k2")
        let result = try PackEmitter.emit(moved, outputDirectory: dir.appendingPathComponent("out").path, options: options)
        #expect(result.manifest.counts.pois == 11_999 && result.manifest.dataVersion == 2)
        #expect(options.reuse?.notes.isEmpty == true)
        let stored = CacheFile.read(pieces + "/base.entry", scope: "emit", name: "base.entry", key: FileDigest.sha256Bytes(of: Array("k2".utf8)))
        #expect(stored != .missing && stored != .otherKey)
        if case .damaged(let why) = stored { Issue.record("\(why)") }
    }

    /// The pack is one ordinary gzip member (libdeflate's): zlib's own inflate reads the whole database back, and
    /// the header has no time or name (OS byte 255).
    @Test func packIsOneGzipMember() throws {
        let dir = try TestPaths.temporaryDirectory("emit-gzip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try PackEmitter.emit(try Self.input(cardTitle: "A"), outputDirectory: dir.path)
        let packed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: result.packPath)))
        #expect(Array(packed.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])
        let z = try ZlibStream(inflating: .gzip)
        var out = [UInt8](repeating: 0, count: result.manifest.artifact.uncompressedBytes + 1)
        let (status, produced) = packed.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                z.setInput(input.baseAddress, count: input.count)
                return z.run(into: output, finish: true)
            }
        }
        #expect(status == .end && produced == result.manifest.artifact.uncompressedBytes && z.availableInput == 0)
        #expect(produced > 3 * (1 << 19), "several chunks: \(produced) bytes")
        #expect(FileDigest.sha256(of: out[..<produced]) == result.manifest.artifact.uncompressedSha256)
    }
}
