import CityPackEmit
import CityPackFormat
import CityPackKit
import Foundation
import Testing

/// `PackDiff` over transit: stops, lines and trips matched by their GTFS ids.
@Suite struct TransitDiffTests {
    @Test func stopsLinesAndTripsAreCompared() throws {
        var files = TransitPackTests.tinyFeed
        files["stops.txt"] = files["stops.txt"]!
            .replacingOccurrences(of: "B,Cordusio,", with: "B,Cordusio Nord,")  // renamed
            .replacingOccurrences(of: "C,Cairoli,45.4680,", with: "C,Cairoli,45.4685,")  // moved ~56 m
        files["routes.txt"] = files["routes.txt"]!.replacingOccurrences(of: "EE1C25", with: "FF0000")
        files["trips.txt"] = files["trips.txt"]!.replacingOccurrences(of: "M1,EXTRA,m1x,Extra,0\n", with: "")
        files["stop_times.txt"] = files["stop_times.txt"]!.split(separator: "\n").filter { !$0.hasPrefix("m1x,") }
            .joined(separator: "\n")
        let before = try TransitPackTests.writePack([try TransitPackTests.readFeed(TransitPackTests.tinyFeed)], city: TransitPackTests.tinyCity)
        let after = try TransitPackTests.writePack([try TransitPackTests.readFeed(files)], city: TransitPackTests.tinyCity)
        let diff = try PackDiff.between(before, after)
        func entity(_ name: String) throws -> PackDiff.Entity { try #require(diff.entities.first { $0.entity == name }) }

        let stops = try entity("stops")
        #expect(stops.changes.map(\.key) == ["0:B", "0:C"])
        #expect(stops.changes.first { $0.key == "0:B" }?.aspects == ["renamed"])
        let moved = stops.changes.first { $0.key == "0:C" }
        #expect(moved?.aspects == ["moved"] && abs((moved?.distanceMetres ?? 0) - 55.6) < 1)

        let lines = try entity("lines")
        #expect(lines.changes.count == 1 && lines.changes[0].key == "0:M1" && lines.changes[0].aspects == ["changed"])
        #expect(lines.changes[0].fields == [.init(field: "colour", old: "EE1C25", new: "FF0000")])

        let trips = try entity("trips")
        #expect(trips.counts["removed"] == 1 && trips.changes.map(\.key) == ["0:m1x"])
        #expect(try entity("pois").changes.isEmpty)
        #expect(try PackDiff.between(after, after).isEmpty)
    }
}
