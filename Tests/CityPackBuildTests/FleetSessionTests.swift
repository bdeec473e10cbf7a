import CityPackBuild
import CityPackTestSupport
import Foundation
import Testing

/// A fleet as a library call: each city finished as a single build is, missing cities told as events, one summary
/// and the exit decision.
@Suite struct FleetSessionTests {
    @Test func aMissingCityIsAnEventAndFailsTheFleet() throws {
        let out = try TestPaths.temporaryDirectory("citypack-fleet-session")
        defer { try? FileManager.default.removeItem(at: out) }
        var base = BuildRequest(city: "", templates: TestPaths.root.appendingPathComponent("templates").path)
        base.useCache = false
        let monaco = TestPaths.root.appendingPathComponent("inputs/monaco").path
        let missing = out.appendingPathComponent("no-such-city").path
        var request = FleetSession.Request(cities: [monaco, missing], base: base)
        request.jobs = 1
        request.output = out.path
        var events: [String] = []
        var finished: [String] = []
        let outcome = try FleetSession.run(
            request,
            finish: { build, prepared in
                finished.append(prepared.request.city)
                return BuildSession.finish(build, prepared)
            },
            events: { event in
                if case .missingCity(let city) = event { events.append(city) }
            })
        #expect(events == [missing])
        #expect(finished == [monaco])
        #expect(outcome.exit == .dataErrors)
        #expect(outcome.summary.cities.map(\.status) == ["built", "missing"])
        #expect(outcome.summary.failed == 1)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("monaco/report.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("catalog.json").path))
    }

    @Test func aMissingFleetFileIsAFailure() {
        var request = FleetSession.Request(cities: [], base: BuildRequest(city: ""))
        request.fleetFile = "/no/such/fleet.yaml"
        #expect {
            _ = try FleetSession.run(request)
        } throws: { error in
            if case .noSuchFleetFile("/no/such/fleet.yaml")? = error as? FleetSession.Failure { return true }
            return false
        }
    }
}
