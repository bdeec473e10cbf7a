import CityPackTestSupport
import Foundation
import Testing

/// The language-neutral journey cases of `Tests/Fixtures/journeys/` (issue 40): a small hand-made feed with a
/// change time from transfers.txt and the default one, a one-way transfer between two stops, a footpath, a
/// service that runs tomorrow only and a chain that needs two transfers beside a slow direct trip. Each case's
/// answer was worked out by hand; `citypack query --journey` (the Swift planner) must give exactly it, as the
/// JS reader must in `clients/web/test/scenarios.test.mjs`. Nothing here needs ../shared.
@Suite struct JourneyScenarioTests {
    struct Case: Decodable {
        var name: String
        var from: String
        var to: String
        var at: String
        var options: [String: Int]
        var expect: [String]
    }

    struct Cases: Decodable { var cases: [Case] }

    static let folder = TestPaths.root.appendingPathComponent("Tests/Fixtures/journeys")

    /// `departure arrival transfers | mode from→to trip, …` of one journey of the CLI's JSON (as the JS test).
    static func summary(_ journey: [String: Any]) -> String {
        let legs = (journey["legs"] as? [[String: Any]] ?? []).map { leg -> String in
            let from = (leg["from"] as? [String: Any])?["stop_id"] as? String ?? "•"
            let to = (leg["to"] as? [String: Any])?["stop_id"] as? String ?? "•"
            let trip = (leg["trip_id"] as? String).map { " \($0)" } ?? ""
            return "\(leg["mode"] as? String ?? "?") \(from)→\(to)\(trip)"
        }
        return "\(journey["departure"] as? String ?? "") \(journey["arrival"] as? String ?? "") \(journey["transfers"] as? Int ?? -1) | \(legs.joined(separator: ", "))"
    }

    @Test func everyCaseAnswersAsWorkedOutByHand() throws {
        let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: Self.folder.appendingPathComponent("cases.json"))).cases
        #expect(cases.count >= 12)
        let work = try TestPaths.temporaryDirectory("journey-cases")
        defer { try? FileManager.default.removeItem(at: work) }
        let city = work.appendingPathComponent("inputs/cases").path
        let initialised = try CLIRunner.runBinary(
            ["init", city, "--gtfs", Self.folder.appendingPathComponent("gtfs").path, "--id", "cases", "--locales", "en"], cwd: work)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let built = try CLIRunner.runBinary(["build", city, "--output", "outputs", "--quiet"], cwd: work)
        #expect(built.status == 0, "\(built.stderr)")
        let flags = ["maxTransfers": "--max-transfers", "maxWalk": "--max-walk", "minChange": "--min-change"]
        for c in cases {
            var arguments = ["query", "outputs/cases/manifest.json", "--journey", c.from, "--to", c.to, "--at", c.at, "--format", "json"]
            for (name, value) in c.options.sorted(by: { $0.key < $1.key }) {
                let flag = try #require(flags[name], "\(c.name): unknown option \(name)")
                arguments += [flag, String(value)]
            }
            let result = try CLIRunner.runBinary(arguments, cwd: work)
            #expect(result.status == 0, "\(c.name): \(result.stderr)")
            let journeys = try CLIRunner.json(result.stdout)["journeys"] as? [[String: Any]] ?? []
            #expect(journeys.map(Self.summary) == c.expect, "\(c.name)")
        }
    }
}
