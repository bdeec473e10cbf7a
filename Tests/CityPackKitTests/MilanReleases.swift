import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation

/// Two signed releases of Milan from ../shared/data (OSM PBF and ATM's GTFS), served from one folder as
/// ``LibraryFixture`` serves Monaco's: version 1, then version 2 with one café added (a second OSM source of one
/// node), so the catalog lists the delta and the manifest patch 1→2; `catalog-v1.json` keeps version 1's catalog.
/// Built once per test process.
enum MilanReleases {
    static let added = "Caffè della Prova"

    static let shared: Result<KillSubject, LibraryFixture.FixtureError> = {
        do { return .success(try build()) } catch { return .failure(LibraryFixture.FixtureError(description: "\(error)")) }
    }()

    static func subject() throws -> KillSubject { try shared.get() }

    static func build() throws -> KillSubject {
        guard let data = TestPaths.sharedData else { throw LibraryFixture.FixtureError(description: "no ../shared/data") }
        let root = try TestPaths.temporaryDirectory("milan-releases")
        let city = root.appendingPathComponent("inputs/milan")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let served = root.appendingPathComponent("served")
        let key = SigningKey.generate()
        let publicKeyFile = root.appendingPathComponent("key.pub")
        try Data((key.publicKey.base64EncodedString() + "\n").utf8).write(to: publicKeyFile)
        func cityFile(_ osm: [String]) -> String {
            """
            id: milan
            name: "Milan"
            locales: [it, en]
            bbox: [9.0655990, 45.3587156, 9.4390028, 45.5749858]
            sources:
              osm: [\(osm.map { "\"\($0)\"" }.joined(separator: ", "))]
              gtfs: ["\(data.appendingPathComponent("gtfs/milan-atm-2015.zip").path)"]
            attribution: "© OpenStreetMap contributors, ODbL 1.0"

            """
        }
        let pbf = data.appendingPathComponent("osm/milan-2015.osm.pbf").path
        try Data(cityFile([pbf]).utf8).write(to: city.appendingPathComponent("city.yaml"))
        try LibraryFixture.build(city, output: served, key: key)
        try FileManager.default.copyItem(
            at: served.appendingPathComponent("catalog.json"), to: served.appendingPathComponent("catalog-v1.json"))
        let extra = """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="99000000001" version="1" lat="45.4642" lon="9.1900">
                <tag k="amenity" v="cafe"/>
                <tag k="name" v="\(added)"/>
              </node>
            </osm>

            """
        try Data(extra.utf8).write(to: city.appendingPathComponent("extra.osm"))
        try Data(cityFile([pbf, "extra.osm"]).utf8).write(to: city.appendingPathComponent("city.yaml"))
        try LibraryFixture.build(city, output: served, key: key)
        let subject = KillSubject(served: served, city: "milan", publicKey: key.publicKey, publicKeyFile: publicKeyFile, probe: "duomo")
        guard subject.deltaBytes > 0, subject.patchBytes > 0 else {
            throw LibraryFixture.FixtureError(description: "Milan version 2 has no delta or manifest patch")
        }
        return subject
    }
}
