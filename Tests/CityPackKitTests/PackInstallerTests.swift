import CityPackFormat
import CityPackKit
import CityPackSupport
import Foundation
import Testing

/// The delta interpreter on hand-written streams: every op is bounds-checked before it allocates or copies, so a
/// hostile delta (one that passed the hash check of a compromised manifest) can only be refused.
@Suite struct PackInstallerTests {
    static let base: [UInt8] = Array("The quick brown fox jumps over the lazy dog. 0123456789".utf8)
    static let target: [UInt8] = Array("The quick red fox jumps over the lazy dog. 0123456789!".utf8)

    /// A header for `base` → `target`, then `ops`.
    static func stream(_ ops: [UInt8], targetBytes: Int = target.count) -> [UInt8] {
        var out = PackDelta.magic
        PackDelta.appendUInt64(UInt64(base.count), to: &out)
        out += FileDigest.sha256Bytes(of: base)
        PackDelta.appendUInt64(UInt64(targetBytes), to: &out)
        out += FileDigest.sha256Bytes(of: target)
        return out + ops
    }

    static var expected: Manifest.Delta {
        Manifest.Delta(
            from: 1, to: 2, path: "x-1-2.delta", bytes: 0, sha256: "", baseBytes: base.count,
            baseSha256: FileDigest.sha256(of: base), resultBytes: target.count, resultSha256: FileDigest.sha256(of: target))
    }

    static func copy(_ offset: Int, _ length: Int) -> [UInt8] {
        var out: [UInt8] = [PackDelta.Op.copy.rawValue]
        PackDelta.appendVarint(UInt64(offset), to: &out)
        PackDelta.appendVarint(UInt64(length), to: &out)
        return out
    }

    static func insert(_ text: String) -> [UInt8] {
        var out: [UInt8] = [PackDelta.Op.insert.rawValue]
        PackDelta.appendVarint(UInt64(text.utf8.count), to: &out)
        return out + Array(text.utf8)
    }

    static let valid: [UInt8] = copy(0, 10) + insert("red") + copy(15, 40) + insert("!") + [PackDelta.Op.end.rawValue]

    @Test func aValidStreamRebuildsTheTarget() throws {
        #expect(try PackInstaller.apply(Self.stream(Self.valid), base: Self.base, expected: Self.expected, path: "d") == Self.target)
    }

    static let hostile: [(String, [UInt8])] = {
        let end: [UInt8] = [PackDelta.Op.end.rawValue]
        var cases: [(String, [UInt8])] = []
        cases.append(("copy past the base", copy(50, 10) + end))
        cases.append(("copy past the result", copy(0, 55) + end))
        cases.append(("zero-length copy", copy(0, 0) + end))
        cases.append(("insert past the stream", [PackDelta.Op.insert.rawValue, 0x7F, 0x41]))
        var huge: [UInt8] = [PackDelta.Op.copy.rawValue]
        huge += [UInt8](repeating: 0xFF, count: 12)
        cases.append(("huge varint", huge + [0x01, 0x01, 0]))
        cases.append(("unknown op", [0x09]))
        cases.append(("missing end", copy(0, 10)))
        cases.append(("bytes after end", valid + end))
        cases.append(("short result", copy(0, 10) + end))
        return cases
    }()

    @Test(arguments: 0..<9)
    func hostileStreamsAreRefused(index: Int) {
        let (name, ops) = Self.hostile[index]
        #expect(throws: PackError.self, "\(name)") {
            try PackInstaller.apply(Self.stream(ops), base: Self.base, expected: Self.expected, path: "d")
        }
    }

    @Test func aHeaderNamingAnotherResultOrBaseIsRefused() {
        #expect(throws: PackError.self) {
            try PackInstaller.apply(Self.stream(Self.valid, targetBytes: 1 << 40), base: Self.base, expected: Self.expected, path: "d")
        }
        #expect(throws: PackError.self) {
            try PackInstaller.apply(Self.stream(Self.valid), base: Array(Self.base.dropLast()), expected: Self.expected, path: "d")
        }
        #expect(throws: PackError.self) {
            try PackInstaller.apply(Array(Self.stream(Self.valid).prefix(40)), base: Self.base, expected: Self.expected, path: "d")
        }
    }

    @Test func catalogOffersTheDeltaFromTheInstalledVersionOnly() {
        var entry = Catalog.Entry(
            id: "c", name: "c", formatVersion: Int(PackSchema.formatVersion), minReaderVersion: Int(PackSchema.formatVersion),
            dataVersion: 5, createdAt: "", updatedAt: nil, manifest: "c/c-5.manifest.json", manifestSha256: nil,
            path: "c/c-5.citypack.gz", bytes: 1000, sha256: "full", etag: "", bbox: [], pois: 1, locales: [], keyId: nil)
        var delta = Self.expected
        (delta.from, delta.to, delta.path, delta.bytes, delta.sha256) = (4, 5, "c/c-4-5.delta", 30, "d45")
        entry.deltas = [delta]
        let catalog = Catalog(formatVersion: 1, updatedAt: nil, packs: [entry])
        #expect(catalog.download(city: "c", installedVersion: 4)?.delta == delta)
        #expect(catalog.download(city: "c", installedVersion: 4)?.bytes == 30)
        #expect(catalog.download(city: "c", installedVersion: 3)?.delta == nil)
        #expect(catalog.download(city: "c", installedVersion: 3)?.bytes == 1000)
        #expect(catalog.download(city: "c", installedVersion: nil)?.path == "c/c-5.citypack.gz")
        #expect(catalog.download(city: "c", installedVersion: 5) == nil)
        #expect(catalog.download(city: "x", installedVersion: 1) == nil)
    }
}
