import CityPackTestSupport
import Foundation
import Testing

/// A POI with two categories (issue 21 point 8): a bank with `atm=yes` is stored as a bank (`poi.category`) that is
/// also an ATM (`poi_category`), found by searching either, listed with `"also": ["atm"]`, and counted under both.
/// The JS reader gives the same answers (clients/web/test/agreement.test.mjs compares "atm" and "bank" on Monaco,
/// whose two banks with cash machines are such POIs).
@Suite struct TwoCategoryTests {
    static func results(_ args: [String]) throws -> [[String: Any]] {
        let r = try CLIRunner.runBinary(args + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try CLIRunner.json(r.stdout)["results"] as? [[String: Any]] ?? []
    }

    @Test func aBankWithACashMachineIsABankAndAnATM() throws {
        let tmp = try TestPaths.temporaryDirectory("two-categories")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("port")
        let osm = TestPaths.root.appendingPathComponent("Tests/Fixtures/two-categories/map.osm").path
        #expect(try CLIRunner.runBinary(["init", city.path, "--osm", osm, "--id", "port", "--locales", "fr,en"]).status == 0)
        let output = tmp.appendingPathComponent("out")
        let built = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        let pack = output.appendingPathComponent("port").path

        let atms = try Self.results(["query", pack, "--search", "atm"])
        #expect(Set(atms.compactMap { $0["osm"] as? String }) == ["n1", "n3"], "\(atms)")
        let bank = try #require(atms.first { $0["osm"] as? String == "n1" })
        #expect(bank["category"] as? String == "bank" && bank["also"] as? [String] == ["atm"], "\(bank)")
        #expect(atms.first { $0["osm"] as? String == "n3" }?["also"] == nil, "a plain ATM has no further category")
        // In the city's locale too: "distributeur" is French for a cash machine.
        #expect(Set(try Self.results(["query", pack, "--search", "distributeur"]).compactMap { $0["osm"] as? String }) == ["n1", "n3"])
        #expect(Set(try Self.results(["query", pack, "--search", "bank"]).compactMap { $0["osm"] as? String }) == ["n1", "n2"])
        let near = try Self.results(["query", pack, "--near", "43.73,7.42", "--radius", "10"])
        #expect(near.first?["also"] as? [String] == ["atm"], "\(near)")

        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("port/manifest.json"), encoding: .utf8))
        let categories = (manifest["counts"] as? [String: Any])?["categories"] as? [String: Int]
        #expect(categories?["atm"] == 2 && categories?["bank"] == 2 && categories?["cafe"] == 1, "\(categories ?? [:])")
        #expect((manifest["counts"] as? [String: Any])?["pois"] as? Int == 4)
    }
}
