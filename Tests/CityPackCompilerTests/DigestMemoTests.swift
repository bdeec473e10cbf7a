import CityPackCache
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

// @testable: the digest memo and its stored stat facts are internal to the compiler.
@testable import CityPackCompiler

/// The stat facts kept beside source digests (git's index): reuse while the stat matches and was settled when
/// hashed, a new hash otherwise, and the facts' round trip through the build cache.
@Suite(.serialized) struct DigestMemoTests {
    static func file(_ dir: URL, _ text: String) throws -> String {
        let path = dir.appendingPathComponent("source.osm").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fact for the file as it is now, with a made-up digest, hashed at `hashedAt` (as if an earlier process
    /// stored it): whether it is used shows whether the digest was reused or the file read again.
    static func planted(_ path: String, hashedAt: Int64) -> DigestMemo.Fact {
        var fact = DigestMemo.statFacts(path)!
        fact.hashedAt = hashedAt
        fact.digest = FileDigest(bytes: 1, sha256: "planted")
        return fact
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1e9) }

    @Test func aSettledUnchangedFileReusesItsDigestAndATouchedOneKeepsItsValue() throws {
        let dir = try TestPaths.temporaryDirectory("digest-facts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(dir, "<osm>a</osm>\n")
        let real = try FileDigest(path: path)
        DigestMemo.forget(path)
        // Facts recorded well after the file's last change: reused without reading the file.
        DigestMemo.adopt([Self.planted(path, hashedAt: Self.now + 10_000_000_000)])
        #expect(DigestMemo.sha256(path) == "planted")
        #expect(DigestMemo.remembers(path))
        // Touched (new times, same bytes): hashed again, and the digest, so every key, is the one it had.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(DigestMemo.sha256(path) == real.sha256)
        DigestMemo.forget(path)
    }

    @Test func aFileChangedInsideTheRacyWindowIsHashedAgain() throws {
        let dir = try TestPaths.temporaryDirectory("digest-facts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(dir, "<osm>b</osm>\n")
        let real = try FileDigest(path: path)
        let stat = DigestMemo.statFacts(path)!
        DigestMemo.forget(path)
        // The same size and times as when hashed, but hashed less than the settling margin after the last change:
        // a same-size rewrite in that tick would look identical, so the digest is not trusted.
        let racy = max(stat.modified, stat.changed) + DigestMemo.settledSeconds * 1_000_000_000
        DigestMemo.adopt([Self.planted(path, hashedAt: racy)])
        #expect(!DigestMemo.remembers(path))
        #expect(DigestMemo.sha256(path) == real.sha256)
        // Just past the margin, the same facts are trusted.
        DigestMemo.forget(path)
        DigestMemo.adopt([Self.planted(path, hashedAt: racy + 1)])
        #expect(DigestMemo.sha256(path) == "planted")
        DigestMemo.forget(path)
    }

    @Test func aFileEditedAfterTheFactsWereRecordedIsHashedAgain() throws {
        let dir = try TestPaths.temporaryDirectory("digest-facts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(dir, "<osm>c</osm>\n")
        DigestMemo.forget(path)
        DigestMemo.adopt([Self.planted(path, hashedAt: Self.now + 10_000_000_000)])
        #expect(DigestMemo.sha256(path) == "planted")
        // The same size, rewritten: the status-change time moves, whatever the modification time says.
        let before = DigestMemo.statFacts(path)!
        try Data("<osm>d</osm>\n".utf8).write(to: URL(fileURLWithPath: path))
        var times = [
            timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
            timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(!DigestMemo.remembers(path))
        #expect(DigestMemo.sha256(path) == (try FileDigest(path: path)).sha256)
        DigestMemo.forget(path)
    }

    /// The facts a build stores in its cache come back in the next process.
    @Test func factsRoundTripThroughTheBuildCache() throws {
        let dir = try TestPaths.temporaryDirectory("digest-facts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(dir, "<osm>e</osm>\n")
        let fact = Self.planted(path, hashedAt: Self.now + 10_000_000_000)
        var w = CacheWriter()
        w.facts([fact])
        let cache = StageCache(outputDirectory: dir.path, cityID: "c", bag: .init())
        #expect(cache.store(StageWork.factsEntry, key: CacheKey(StageWork.factsEntry), payload: w.bytes))
        DigestMemo.forget(path)
        #expect(StageWork.loadFacts(cache) == [fact])
        #expect(DigestMemo.sha256(path) == "planted")
        DigestMemo.forget(path)
    }

    /// A digest another reader computed (a fleet's shared PBF read) is kept when the file did not change during
    /// the read, and then answers without reading the file; a file that changed meanwhile is hashed itself.
    @Test func aRecordedDigestIsReusedOnlyForTheFileAsItWas() throws {
        let dir = try TestPaths.temporaryDirectory("digest-record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(dir, "<osm>recorded</osm>\n")
        var old = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &old, 0) == 0)
        DigestMemo.forget(path)
        let before = try #require(DigestMemo.statFacts(path))
        let size = Int(before.size)
        // Read (as if) well after its last change: settled.
        DigestMemo.record(
            path, before: before, startedAt: DigestMemo.now + 10_000_000_000, digest: FileDigest(bytes: size, sha256: "from-the-read"))
        #expect(DigestMemo.sha256(path) == "from-the-read", "the recorded digest answers: the file is not read again")
        // Facts taken before an edit: not kept.
        DigestMemo.forget(path)
        let stale = try #require(DigestMemo.statFacts(path))
        try Data("<osm>edited!!</osm>\n".utf8).write(to: URL(fileURLWithPath: path))
        DigestMemo.record(
            path, before: stale, startedAt: DigestMemo.now + 10_000_000_000, digest: FileDigest(bytes: size, sha256: "stale"))
        #expect(DigestMemo.sha256(path) == (try FileDigest(path: path)).sha256)
        DigestMemo.forget(path)
    }
}
