import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
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
}
