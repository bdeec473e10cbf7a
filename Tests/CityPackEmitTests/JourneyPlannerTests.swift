import CityPackFormat
import CityPackKit
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: writes bare databases with PackWriter (through TransitPackTests.writePack).
@testable import CityPackEmit

/// The journey planner on the tiny feed of ``TransitPackTests`` (P1 and P2 are platforms of station STA; M1
/// P1 → B → C at 08:00, tram 2 P2 → B → C at 08:00, every 15 minutes 06:00–06:45 on t2f, night bus N9 at
/// 25:30 on weekdays): what each query mode answers, worked out by hand.
@Suite struct JourneyPlannerTests {
    static func reader(_ files: [String: String] = TransitPackTests.tinyFeed) throws -> PackReader {
        try TransitPackTests.writePack([TransitPackTests.readFeed(files)], city: TransitPackTests.tinyCity)
    }

    static func day(_ text: String) throws -> ServiceDate { try #require(ServiceDate(text)) }

    /// (departure, arrival, transfers, legs as "mode from→to trip") of each journey.
    static func summary(_ journeys: [Journey]) -> [String] {
        journeys.map { j in
            let legs = j.legs.map { "\($0.mode.rawValue) \($0.from.stopID ?? "•")→\($0.to.stopID ?? "•") \($0.tripID ?? "")" }
            return "\(j.departure.seconds) \(j.arrival.seconds) \(j.transfers) \(legs.joined(separator: ", "))"
        }
    }

    @Test func departAtFindsTheEarliestArrival() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        // Tuesday 07:55 from the station: M1 at 08:00 from P1 reaches C at 08:10 (tram 2 only at 08:12).
        let journeys = try reader.transit.journeys(
            from: .stop("STA"), to: .stop("C"), date: Self.day("2024-03-26"), seconds: 7 * 3600 + 55 * 60)
        #expect(Self.summary(journeys) == ["28800 29400 0 ride P1→C m1a"])
        let ride = try #require(journeys.first?.legs.first)
        #expect(ride.intermediateStops.map(\.place.stopID) == ["B"])
        #expect(ride.line == "M1" && ride.headsign == "Sesto" && ride.routeID == "M1")
        #expect(ride.serviceDate == (try Self.day("2024-03-26")))
        // Monday the 25th: WK removed, SAT added: M1 runs at 09:00 as m1s.
        let monday = try reader.transit.journeys(
            from: .stop("P1"), to: .stop("C"), date: Self.day("2024-03-25"), seconds: 7 * 3600)
        #expect(Self.summary(monday) == ["32400 33000 0 ride P1→C m1s"])
    }

    @Test func nightTripsOfYesterdayAndRangeAndArriveBy() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        // 01:00 on Wednesday: the N9 of Tuesday's service day leaves at 25:30 (= 01:30) and reaches C at 01:50.
        let night = try reader.transit.journeys(from: .stop("P1"), to: .stop("C"), date: Self.day("2024-03-27"), seconds: 3600)
        #expect(Self.summary(night) == ["5400 6600 0 ride P1→C n9late"])
        #expect(night.first?.legs.first?.serviceDate == (try Self.day("2024-03-26")))
        // Every frequency departure 06:00–06:45 of t2f in a 60-minute window.
        let range = try reader.transit.journeys(
            from: .stop("STA"), to: .stop("C"), date: Self.day("2024-03-26"), seconds: 6 * 3600, window: 60)
        #expect(Self.summary(range) == [21600, 22500, 23400, 24300].map { "\($0) \($0 + 360) 0 ride P2→C t2f" })
        // Arrive by 08:11: leave on M1 at 08:00 (the frequency trips arrive earlier but leave earlier).
        let by = try reader.transit.journeys(
            from: .stop("STA"), to: .stop("C"), date: Self.day("2024-03-26"), seconds: 8 * 3600 + 11 * 60, arriveBy: true)
        #expect(Self.summary(by) == ["28800 29400 0 ride P1→C m1a"])
    }

    @Test func walkingLimitsAndCoordinates() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        // B → P1 by foot only (a footpath within 400 m), at once.
        let walk = try reader.transit.journeys(from: .stop("B"), to: .stop("P1"), date: Self.day("2024-03-26"), seconds: 36_000)
        #expect(walk.count == 1 && walk.first?.legs.map(\.mode) == [.walk] && walk.first?.transfers == 0)
        #expect((walk.first?.legs.first?.metres ?? 0) > 300)
        // --max-walk 0: no footpath, and nothing runs from B to P1.
        let none = try reader.transit.journeys(from: .stop("B"), to: .stop("P1"), date: Self.day("2024-03-26"),
            seconds: 36_000, options: JourneyOptions(maxWalkMetres: 0))
        #expect(none.isEmpty)
        // From a point 50 m from P1 to C: walk, then M1.
        let point = try reader.transit.journeys(from: .coordinate(lat: 45.4645, lon: 9.1905), to: .stop("C"),
            date: Self.day("2024-03-26"), seconds: 7 * 3600 + 50 * 60)
        let first = try #require(point.first)
        #expect(first.legs.map(\.mode) == [.walk, .ride] && first.legs[1].tripID == "m1a")
        #expect(first.legs[0].arrival == first.legs[1].departure, "the walk ends as the ride leaves")
        #expect(first.departure.seconds == 28_800 - (first.legs[0].arrival.seconds - first.legs[0].departure.seconds))
        // Unknown stops reach nothing.
        #expect(try reader.transit.journeys(from: .stop("nope"), to: .stop("C"), date: Self.day("2024-03-26"), seconds: 0).isEmpty)
    }

    @Test func idsResolveOrSayTheJourneyIsGone() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        let journeys = try reader.transit.journeys(
            from: .stop("STA"), to: .stop("C"), date: Self.day("2024-03-26"), seconds: 7 * 3600 + 55 * 60)
        let journey = try #require(journeys.first)
        #expect(journey.id.count < 48 && journey.id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try reader.transit.journey(id: journey.id) == .found(journey))
        #expect(try reader.transit.journey(id: "not-an-id") == .invalid)
        // Every one-character change of the id (each position, every other base64url letter) is never `found`:
        // ids are canonical (base64's unused low bits and over-long varints are refused).
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var tried = 0
        for (i, original) in journey.id.enumerated() {
            for letter in alphabet where letter != original {
                var chars = Array(journey.id)
                chars[i] = letter
                if case .found = try reader.transit.journey(id: String(chars)) {
                    Issue.record("\(String(chars)) (position \(i) changed) resolves as found")
                }
                tried += 1
            }
        }
        #expect(tried == journey.id.count * 63)
        // Another spelling of the same bytes (the unused low bits of the last character set) is not an id at all:
        // `.invalid`, not a lookup that finds the journey again. Ids whose bytes fill whole base64 groups have no
        // such spelling, so a few journeys are tried until one has.
        var spellings = 0
        let starts: [(JourneyEndpoint, Int)] = [(.stop("STA"), 28_500), (.coordinate(lat: 45.4645, lon: 9.1905), 28_200), (.stop("P1"), 28_000), (.stop("B"), 28_700)]
        for (origin, seconds) in starts {
            for candidate in try reader.transit.journeys(from: origin, to: .stop("C"), date: Self.day("2024-03-26"), seconds: seconds) {
                let id = candidate.id
                func bytes(_ text: String) -> Data? {
                    var t = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    while t.count % 4 != 0 { t += "=" }
                    return Data(base64Encoded: t)
                }
                let original = bytes(id)
                for letter in alphabet where letter != id.last! {
                    let other = String(id.dropLast()) + String(letter)
                    guard bytes(other) == original else { continue }
                    #expect(try reader.transit.journey(id: other) == .invalid, "\(other) spells \(id)'s bytes")
                    spellings += 1
                }
            }
        }
        #expect(spellings > 0, "no journey id here has a second spelling to try")

        // A newer timetable without m1a: the id is gone; the nearest equivalent is tram 2, boarded at B at 08:07
        // after walking there from P2 (leaving 08:01:51 beats riding it from P2 at 08:00 for the same arrival).
        var files = TransitPackTests.tinyFeed
        files["stop_times.txt"] = files["stop_times.txt"]!.split(separator: "\n").filter { !$0.hasPrefix("m1a,") }
            .joined(separator: "\n")
        let newer = try Self.reader(files)
        defer { newer.close() }
        guard case .gone(let nearest) = try newer.transit.journey(id: journey.id) else {
            Issue.record("the id should be gone")
            return
        }
        #expect(nearest.map { Self.summary([$0]) } == ["28911 29520 0 walk P2→B , ride B→C t2a"])
    }

    @Test func isoTimesCarryTheZoneOffset() throws {
        let winter = JourneyTime(date: try Self.day("2024-03-26"), seconds: 25 * 3600 + 5 * 60)
        #expect(TransitReader.iso8601(winter, timezone: "Europe/Rome") == "2024-03-27T01:05:00+01:00")
        let summer = JourneyTime(date: try Self.day("2014-10-20"), seconds: 7 * 3600 + 47 * 60)
        #expect(TransitReader.iso8601(summer, timezone: "Europe/Rome") == "2014-10-20T07:47:00+02:00")
        #expect(TransitReader.iso8601(summer, timezone: "America/New_York") == "2014-10-20T07:47:00-04:00")
        #expect(TransitReader.iso8601(summer, timezone: "") == "2014-10-20T07:47:00")
    }

    /// B has the most departures (M1's three trips, tram 2 and the four frequency runs); from it at 08:00 on a
    /// weekday M1 and tram 2 reach C, and footpaths (under 400 m) reach both platforms P1 and P2.
    @Test func reachabilityFromTheBusiestStop() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        let report = try reader.transit.reachability()
        #expect(report.count == 1)
        let feed = try #require(report.first)
        #expect(feed.busiestStopID == "B" && feed.served == 4 && feed.seconds == 8 * 3600)
        #expect(feed.date.weekday < 5)
        #expect(feed.reachable == 4, "B, C, and P1 and P2 on foot")
    }

    /// Wheelchair: with P1 marked not accessible (a platform saying 2) a step-free journey from the station walks
    /// from P2 to B and boards M1 there; with trip m1a marked not accessible it takes tram 2 from P2. Without the
    /// option, M1 from P1 both times.
    @Test func wheelchairAvoidsMarkedStopsAndTrips() throws {
        // A column more in every row: the marked row gets 2, the others nothing.
        func marking(_ text: String, column: String, row: String) -> String {
            text.split(separator: "\n").enumerated().map { n, line in
                n == 0 ? "\(line),\(column)" : line.hasPrefix(row) ? "\(line),2" : "\(line),"
            }.joined(separator: "\n")
        }
        var stopMarked = TransitPackTests.tinyFeed
        stopMarked["stops.txt"] = marking(stopMarked["stops.txt"]!, column: "wheelchair_boarding", row: "P1,")
        var tripMarked = TransitPackTests.tinyFeed
        tripMarked["trips.txt"] = marking(tripMarked["trips.txt"]!, column: "wheelchair_accessible", row: "M1,WK,m1a,")
        for (files, expected) in [
            (stopMarked, "28791 29400 0 walk P2→B , ride B→C m1a"), (tripMarked, "28800 29520 0 ride P2→C t2a"),
        ] {
            let reader = try Self.reader(files)
            defer { reader.close() }
            let ask = { (wheelchair: Bool) in
                try reader.transit.journeys(from: .stop("STA"), to: .stop("C"), date: Self.day("2024-03-26"),
                    seconds: 7 * 3600 + 55 * 60, options: JourneyOptions(wheelchair: wheelchair))
            }
            let plain = Self.summary(try ask(false)), stepFree = Self.summary(try ask(true))
            #expect(plain == ["28800 29400 0 ride P1→C m1a"])
            #expect(stepFree == [expected])
        }
    }

    @Test func timezonesAreInThePack() throws {
        let reader = try Self.reader()
        defer { reader.close() }
        #expect(reader.transit.timezones == ["Europe/Rome"])
    }
}
