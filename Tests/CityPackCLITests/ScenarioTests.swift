import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// The language-neutral scenarios of `Tests/Scenarios/` (issue 41; the format is in its README): each names a
/// tiny fixture city (a folder of `Tests/Fixtures/` with `map.osm` and/or `gtfs/`), a query — nearby, search,
/// places in a box, departures or journeys — and the answer worked out by hand from the fixture data.
/// ``PackReader`` must give exactly it on a pack this test builds, as the web reader must on the same build's web
/// flavour in `clients/web/test/scenarios-shared.test.mjs`. Ids and distances (0.1 m) are compared, not whole
/// rows. Nothing here needs ../shared.
@Suite struct ScenarioTests {
    struct Box: Decodable, Sendable {
        var minLon: Double
        var minLat: Double
        var maxLon: Double
        var maxLat: Double
    }

    struct Options: Decodable, Sendable {
        var maxTransfers: Int?
        var maxWalk: Int?
        var minChange: Int?
        var window: Int?
        var arriveBy: Bool?
    }

    /// Every field any kind of query uses; each kind reads its own.
    struct Query: Decodable, Sendable {
        var lat: Double?
        var lon: Double?
        var radius: Double?
        var category: String?
        var limit: Int?
        var offset: Int?
        var openAt: String?
        var text: String?
        var near: [Double]?
        var locale: String?
        var box: Box?
        var stop: String?
        var date: String?
        var time: String?
        var from: String?
        var to: String?
        var options: Options?
    }

    /// The answer as the scenarios write it (only the fields a kind has).
    struct Expect: Decodable, Sendable, Equatable, CustomStringConvertible {
        var ids: [String]?
        var distances: [Double]?
        var departures: [String]?
        var journeys: [String]?

        var description: String {
            [ids.map { "ids \($0)" }, distances.map { "distances \($0)" }, departures.map { "departures \($0)" },
                journeys.map { "journeys \($0)" }].compactMap { $0 }.joined(separator: "; ")
        }
    }

    struct Scenario: Decodable, Sendable, CustomTestStringConvertible {
        var id: String
        var city: String
        var kind: String
        var about: String
        var query: Query
        var expect: Expect
        var testDescription: String { id }
    }

    struct File: Decodable { var scenarios: [Scenario] }

    static let folder = TestPaths.root.appendingPathComponent("Tests/Scenarios")

    /// Every scenario of every `*.json` file of the folder, files in name order.
    static let all: [Scenario] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.flatMap { name -> [Scenario] in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let file = try? JSONDecoder().decode(File.self, from: data)
            else { return [] }
            return file.scenarios
        }
    }()

    /// The fixture cities, built once (`init` + `build` with the binary, as the web test builds them) and opened.
    final class Cities: @unchecked Sendable {
        private let lock = NSLock()
        private var readers: [String: PackReader] = [:]

        func reader(_ city: String) throws -> PackReader {
            lock.lock()
            defer { lock.unlock() }
            if let reader = readers[city] { return reader }
            let fixture = TestPaths.root.appendingPathComponent("Tests/Fixtures/\(city)")
            let work = try TestPaths.temporaryDirectory("scenarios-\(city)")
            let input = work.appendingPathComponent("inputs/\(city)").path
            var sources: [String] = []
            for (flag, name) in [("--osm", "map.osm"), ("--gtfs", "gtfs")]
            where FileManager.default.fileExists(atPath: fixture.appendingPathComponent(name).path) {
                sources += [flag, fixture.appendingPathComponent(name).path]
            }
            let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
            let initialised = try CLIRunner.runBinary(
                ["init", input] + sources + ["--id", city, "--locales", "en"], environment: environment, cwd: work)
            try #require(initialised.status == 0, "\(city): \(initialised.stderr)")
            let built = try CLIRunner.runBinary(["build", input, "--output", "outputs", "--quiet"], environment: environment, cwd: work)
            try #require(built.status == 0, "\(city): \(built.stderr)")
            let reader = try PackReader.open(manifest: work.appendingPathComponent("outputs/\(city)/manifest.json"))
            readers[city] = reader
            return reader
        }
    }

    static let cities = Cities()

    /// A result's id as the scenarios write it: the OSM reference of a POI (`n3`), `stop:<stop_id>` of a stop.
    static func key(_ place: PlaceResult) -> String {
        place.kind == .stop ? "stop:\(place.stopID ?? "")" : place.osm
    }

    static func tenth(_ metres: Double?) -> Double { ((metres ?? .nan) * 10).rounded() / 10 }

    /// `HH:MM` of seconds from a day's 00:00 (hours may pass 24).
    static func hhmm(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }

    /// `departure arrival transfers | mode from→to trip, …` of one journey (as Tests/Fixtures/journeys/cases.json).
    static func summary(_ journey: Journey, timezone: String) -> String {
        let legs = journey.legs.map { leg in
            "\(leg.mode.rawValue) \(leg.from.stopID ?? "•")→\(leg.to.stopID ?? "•")\(leg.tripID.map { " \($0)" } ?? "")"
        }
        let departure = TransitReader.iso8601(journey.departure, timezone: timezone)
        let arrival = TransitReader.iso8601(journey.arrival, timezone: timezone)
        return "\(departure) \(arrival) \(journey.transfers) | \(legs.joined(separator: ", "))"
    }

    struct Missing: Error, CustomStringConvertible { var description: String }

    /// The value, or an error naming what the scenario lacks.
    static func need<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Missing(description: "the scenario gives no valid \(what)") }
        return value
    }

    /// Seconds from 00:00 of `HH:MM`.
    static func seconds(_ text: String) throws -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { throw Missing(description: "time \(text) is not HH:MM") }
        return parts[0] * 3600 + parts[1] * 60
    }

    /// The scenario's answer from ``PackReader``, in the shape of its `expect`.
    static func answer(_ reader: PackReader, _ s: Scenario) throws -> Expect {
        let q = s.query
        let openAt = try q.openAt.map { text in try need(ISO8601DateFormatter().date(from: text), "openAt \(text)") }
        func places(_ rows: [PlaceResult]) -> Expect {
            Expect(ids: rows.map(key), distances: s.expect.distances == nil ? nil : rows.map { tenth($0.distanceMetres) })
        }
        switch s.kind {
        case "nearby":
            return places(
                try reader.nearby(
                    lat: try need(q.lat, "lat"), lon: try need(q.lon, "lon"), radius: q.radius ?? ReaderDefaults.nearbyRadiusMetres,
                    category: q.category, limit: q.limit ?? PackReader.defaultNearbyLimit, offset: q.offset ?? 0, locale: q.locale,
                    openAt: openAt))
        case "search":
            let near = try q.near.map { pair in
                Coordinate(lat: try need(pair.first, "near"), lon: try need(pair.count == 2 ? pair[1] : nil, "near"))
            }
            return places(
                try reader.search(
                    try need(q.text, "text"), near: near, locale: q.locale, limit: q.limit ?? PackReader.defaultSearchLimit,
                    offset: q.offset ?? 0, openAt: openAt))
        case "places":
            let b = try need(q.box, "box")
            return places(
                try reader.places(
                    in: BoundingBox(minLon: b.minLon, minLat: b.minLat, maxLon: b.maxLon, maxLat: b.maxLat), category: q.category,
                    limit: q.limit ?? PackReader.defaultListingLimit, offset: q.offset ?? 0, locale: q.locale))
        case "departures":
            let date = try need(q.date.flatMap { ServiceDate($0) }, "date")
            let list = try reader.transit.departures(
                stop: try need(q.stop, "stop"), date: date, seconds: try seconds(try need(q.time, "time")),
                limit: q.limit ?? ReaderDefaults.departuresLimit)
            return Expect(departures: list.map { "\($0.serviceDate) \(hhmm($0.seconds)) \($0.tripID)" })
        case "journeys":
            let date = try need(q.date.flatMap { ServiceDate($0) }, "date")
            let o = q.options ?? Options()
            let defaults = JourneyOptions()
            let options = JourneyOptions(
                maxTransfers: o.maxTransfers ?? defaults.maxTransfers, maxWalkMetres: o.maxWalk ?? defaults.maxWalkMetres,
                minChangeSeconds: o.minChange ?? defaults.minChangeSeconds)
            let list = try reader.transit.journeys(
                from: JourneyEndpoint(try need(q.from, "from")), to: JourneyEndpoint(try need(q.to, "to")), date: date,
                seconds: try seconds(try need(q.time, "time")), arriveBy: o.arriveBy ?? false, window: o.window, options: options)
            let zone = reader.transit.timezones.first ?? ""
            return Expect(journeys: list.map { summary($0, timezone: zone) })
        default:
            Issue.record("\(s.id): unknown kind \(s.kind)")
            return Expect()
        }
    }

    @Test func theFilesHoldAtLeastTwentyScenariosOfEveryKind() {
        #expect(Self.all.count >= 20)
        #expect(Set(Self.all.map(\.kind)) == ["nearby", "search", "places", "departures", "journeys"])
        #expect(Set(Self.all.map(\.id)).count == Self.all.count, "scenario ids must be unique")
    }

    @Test(arguments: ScenarioTests.all)
    func answersAsWorkedOutByHand(_ scenario: Scenario) throws {
        let reader = try Self.cities.reader(scenario.city)
        let answer = try Self.answer(reader, scenario)
        #expect(answer == scenario.expect, "\(scenario.id): \(scenario.about)")
    }
}
