import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackKit
import CityPackModel
import CityPackDevTools
import CityPackTestSupport
import Foundation
import Testing

// @testable: writes a bare database with PackWriter, the emitter's internal database writer.
@testable import CityPackEmit

/// The journey planner (RAPTOR, CityPackKit) against an independent connection scan written here: it reads the
/// pack with plain SQL, decodes the pattern BLOBs itself, and scans every connection of the service days in
/// departure order (Dibbelt, Pätzold, Strasser, Wagner: "Connection Scan Algorithm"). Both follow the model
/// ``RaptorSearch`` documents (off a vehicle: change after the stop's change time or walk one footpath; on
/// foot: board at once); they share no code. Earliest arrivals must agree for 1,000 random queries per feed,
/// a quarter of them between 22:00 and 03:00.
@Suite(.serialized) struct JourneyAgreementTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var feed: String
        var testDescription: String { feed }
    }

    static let cases = [
        Case(feed: "google-sample-feed.zip"), Case(feed: "nyc-subway-2025.zip"), Case(feed: "milan-atm-2015.zip"),
    ]

    @Test(.needsSharedData, arguments: cases)
    func earliestArrivalsAgreeWithConnectionScan(_ testCase: Case) throws {
        let data = try #require(TestPaths.sharedData)
        let zip = data.appendingPathComponent("gtfs/\(testCase.feed)").path
        let feed = try #require(try GTFSReader.read(path: zip, bag: DiagnosticBag()))
        let bbox = try #require(BoundingBox.enclosing(feed.stops.compactMap(\.coordinate)))
        let path = try TestPaths.temporaryDirectory("journeys-\(testCase.feed)").appendingPathComponent("p.sqlite").path
        try PackWriter.write(
            PackInput(city: City(id: "j", name: "J", bbox: bbox), pois: [], categories: [], createdAt: 0,
                generator: "t", sources: [], transit: [feed]),
            to: path)
        let reader = try PackReader.open(URL(fileURLWithPath: path))
        defer { reader.close() }
        let scan = try ConnectionScan(path: path)
        #expect(scan.connectionCount(date: scan.middleDate) > 0, "the feed runs on its middle date")

        var random = SplitMix64(seed: 31)
        let options = JourneyOptions(maxTransfers: 15)
        var agreed = 0, reached = 0, overnight = 0
        var disagreements: [String] = []
        let dates = (0..<4).map { scan.middleDate + $0 * 2 }
        for n in 0..<1000 {
            let origin = scan.servedCodes[Int(random.next() % UInt64(scan.servedCodes.count))]
            var destination = origin
            while destination == origin {
                destination = scan.servedCodes[Int(random.next() % UInt64(scan.servedCodes.count))]
            }
            let day = dates[n % dates.count]
            let seconds: Int
            if n % 4 == 0 {
                seconds = (22 * 3600 + Int(random.next() % UInt64(5 * 3600))) % 86_400
                overnight += 1
            } else {
                seconds = Int(random.next() % 86_400)
            }
            let expected = scan.earliestArrival(from: origin, to: destination, day: day, seconds: seconds, options: options)
            let date = try #require(ServiceDate(String(ConnectionScan.yyyymmdd(day))))
            let journeys = try reader.transit.journeys(
                from: .stop(origin), to: .stop(destination), date: date, seconds: seconds, options: options)
            let got = journeys.map(\.arrival.seconds).min()
            if got == expected {
                agreed += 1
            } else if disagreements.count < 5 {
                disagreements.append("\(origin) → \(destination) \(date) \(seconds): router \(got.map(String.init) ?? "none"), scan \(expected.map(String.init) ?? "none")")
            }
            if expected != nil { reached += 1 }
        }
        print("journeys \(testCase.feed): \(agreed)/1000 agree (\(reached) reachable, \(overnight) overnight)")
        #expect(agreed == 1000, "\(disagreements)")
        // Most random pairs are connected; an all-unreachable comparison would prove little.
        #expect(reached >= 500, "\(reached) reachable")
    }
}

