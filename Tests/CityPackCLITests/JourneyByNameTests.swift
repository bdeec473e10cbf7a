import CityPackTestSupport
import Foundation
import Testing

/// `query --journey NAME --to NAME` (issue 37): a stop's name resolves through search — an exact name to its stop,
/// same-named or same-rooted stops side by side to the point between them (an interchange), and a name that fits
/// distinct places to the list of their stop_ids (exit 1). On Milan's ATM feed (GTFS only, its own names).
@Suite(.serialized) struct JourneyByNameTests {
    @Test(.needsSharedData) func namesResolveToStopsPlacesOrAListOfCandidates() throws {
        let data = try #require(TestPaths.sharedData)
        let tmp = try TestPaths.temporaryDirectory("journey-by-name")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("milan")
        let feed = data.appendingPathComponent("gtfs/milan-atm-2015.zip").path
        #expect(try CLIRunner.runBinary(["init", city.path, "--gtfs", feed, "--id", "milan"]).status == 0)
        let output = tmp.appendingPathComponent("out")
        let built = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        try #require(built.status == 0, "\(built.stderr)")
        let pack = output.appendingPathComponent("milan").path
        func journey(_ from: String, _ to: String) throws -> CLIRunner.Result {
            try CLIRunner.runBinary(["query", pack, "--journey", from, "--to", to, "--at", "2014-10-21 09:00", "--format", "json"])
        }

        // An exact name (any case) is its stop; by name or by id, the same journeys.
        let byName = try journey("loreto m2", "Genova")
        #expect(byName.status == 0, "\(byName.stderr)")
        let journeys = try CLIRunner.json(byName.stdout)["journeys"] as? [[String: Any]] ?? []
        #expect(!journeys.isEmpty, "\(byName.stdout)")
        let firstLeg = (journeys.first?["legs"] as? [[String: Any]])?.first
        #expect((firstLeg?["from"] as? [String: Any])?["stop_id"] as? String == "LORETO M2", "\(firstLeg ?? [:])")
        // "Genova": the rail station and the metro's two platforms side by side, one place (a note says so).
        #expect(byName.stderr.contains("'Genova' is 3 stops side by side"), "\(byName.stderr)")
        #expect(byName.stderr.contains("P.TA GENOVA F.S.") && byName.stderr.contains("11178"))

        // A name that fits places far apart: the candidates with their stop_ids, exit 1.
        let farApart = try journey("Via", "Loreto")
        #expect(farApart.status == 1)
        #expect(farApart.stderr.contains("'Via' names") && farApart.stderr.contains("give the stop_id of one of them"), "\(farApart.stderr)")
        #expect(farApart.stderr.split(separator: "\n").filter { $0.hasPrefix("  ") }.count >= 10)
        // A name no stop has, and a stop_id still work as before.
        let nowhere = try journey("Atlantis Central", "Loreto")
        #expect(nowhere.status == 1 && nowhere.stderr.contains("no stop with stop_id or name 'Atlantis Central'"), "\(nowhere.stderr)")
        #expect(try journey("LORETO M2", "11178").status == 0)
    }
}
