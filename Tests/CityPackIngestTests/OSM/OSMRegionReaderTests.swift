import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// The region reader on the rule-example map as PBF: the same share of the data whether the nodes a crossing
/// way needs from outside the box come from the first pass (kept) or from a second pass over their blobs.
@Suite struct OSMRegionReaderTests {
    @Test(.needs(OutsideTools.osmium)) func keptAndSecondPassGiveTheSameShare() throws {
        let dir = try TestPaths.temporaryDirectory("region-reader")
        let pbf = dir.appendingPathComponent("map.osm.pbf").path
        let made = try OutsideTools.osmium.run(
            ["cat", TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base/map.osm").path, "-o", pbf])
        try #require(made.status == 0, "\(made.stderr)")
        // Cuts the museum way: two of its nodes lie west of the box.
        let box = BoundingBox(minLon: 7.4155, minLat: 43.725, maxLon: 7.43, maxLat: 43.745)
        var results: [(OSMIngestResult, OSMRegionReader.Figures)] = []
        for keep in [nil, 0] as [Int?] {
            let bag = DiagnosticBag()
            let reader = OSMReader(profile: OSMTest.profile, bag: bag)
            let figures = try OSMRegionReader.read(
                path: pbf, regions: [.init(box: box, reader: reader, displayPath: "map.osm.pbf")], workers: 2, keepOutside: keep)
            results.append((reader.finish(), figures))
            #expect(!bag.hasErrors, "\(bag.diagnostics)")
        }
        let (kept, keptFigures) = results[0], (twoPass, twoPassFigures) = results[1]
        #expect(keptFigures.secondPassBlobs == 0)
        #expect(twoPassFigures.secondPassBlobs >= 1)
        #expect(keptFigures.nodesNeeded == 2 && twoPassFigures.nodesNeeded == 2, "nodes 4 and 7 of the museum way")
        let museum = { (r: OSMIngestResult) in r.pois.first { $0.ref.description == "w10" } }
        #expect(museum(kept) != nil, "the museum way reaches the box: it is the city's, placed on all its nodes")
        #expect(museum(kept)?.coordinate == museum(twoPass)?.coordinate)
        #expect(kept.pois.map(\.ref.description).sorted() == twoPass.pois.map(\.ref.description).sorted())
        #expect(kept.nodes == twoPass.nodes)
        // Node 1 (7.41, 43.73) lies outside the box and is in no routed way: not the city's.
        #expect(!kept.pois.contains { $0.ref.description == "n1" })
    }

    /// A fleet hashes the file from the bytes the region read reads (one read per shard): the digest is the file's
    /// own, and there is none when pass 1 did not read every byte (a file cut short).
    @Test(.needs(OutsideTools.osmium)) func passOneHashesTheFileItReads() throws {
        let dir = try TestPaths.temporaryDirectory("region-reader-hash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pbf = dir.appendingPathComponent("map.osm.pbf").path
        let made = try OutsideTools.osmium.run(
            ["cat", TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base/map.osm").path, "-o", pbf])
        try #require(made.status == 0, "\(made.stderr)")
        let box = BoundingBox(minLon: 7.4155, minLat: 43.725, maxLon: 7.43, maxLat: 43.745)
        func read(_ path: String, hashing: Bool) throws -> OSMRegionReader.Figures {
            let reader = OSMReader(profile: OSMTest.profile, bag: DiagnosticBag())
            return try OSMRegionReader.read(
                path: path, regions: [.init(box: box, reader: reader, displayPath: "map.osm.pbf")], workers: 2,
                keepOutside: 0, hashing: hashing)
        }
        let hashed = try read(pbf, hashing: true)
        #expect(hashed.secondPassBlobs >= 1, "pass 2 skips blobs; the digest comes from pass 1 alone")
        #expect(hashed.digest == (try FileDigest(path: pbf)))
        #expect(try read(pbf, hashing: false).digest == nil)
        // Cut inside its last blob: pass 1 fails at the end, having read every byte there is; a digest is only
        // ever the one of the bytes the file holds.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pbf))
        let cut = dir.appendingPathComponent("cut.osm.pbf").path
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: cut))
        if let digest = try read(cut, hashing: true).digest { #expect(digest == (try FileDigest(path: cut))) }
    }

    /// The streaming digest takes bytes in file order only: a gap or a repeat leaves no digest.
    @Test func streamingDigestNeedsEveryByteInOrder() {
        let bytes: [UInt8] = Array(0..<200)
        var whole = StreamingFileDigest()
        bytes.withUnsafeBytes { raw in
            whole.update(UnsafeRawBufferPointer(rebasing: raw[0..<50]), at: 0)
            whole.update(UnsafeRawBufferPointer(rebasing: raw[50..<200]), at: 50)
        }
        #expect(whole.digest(fileSize: 200) == FileDigest(bytes: 200, sha256: FileDigest.sha256(of: bytes)))
        #expect(whole.digest(fileSize: 201) == nil, "a short read is not the file's digest")
        var gap = StreamingFileDigest()
        bytes.withUnsafeBytes { raw in
            gap.update(UnsafeRawBufferPointer(rebasing: raw[0..<50]), at: 0)
            gap.update(UnsafeRawBufferPointer(rebasing: raw[60..<200]), at: 60)
        }
        #expect(gap.digest(fileSize: 200) == nil)
        var skipped = StreamingFileDigest()
        bytes.withUnsafeBytes { skipped.update($0, at: 0) }
        skipped.skipped()
        #expect(skipped.digest(fileSize: 200) == nil)
    }
}
