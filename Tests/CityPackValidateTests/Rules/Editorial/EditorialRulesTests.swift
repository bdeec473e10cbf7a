import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: phoneNumbers checks InvalidActionRule.isPhoneNumber, an internal helper of the rule.
@testable import CityPackValidate

/// Every editorial rule with an input that triggers it and a close one that does not. Files are written to a
/// temporary editorial folder and go through the real CSV reader and the validator.
@Suite struct EditorialRulesTests {
    static let bbox = BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76)
    static let city = City(id: "example", name: "Example", defaultLocale: "en", locales: ["en"], bbox: bbox)
    static let toilet = POI(ref: OSMRef(.node, 10), coordinate: Coordinate(lat: 43.7300, lon: 7.4200), category: "toilet",
        name: nil, localizedNames: [:], tags: [:], location: SourceLocation(file: "map.osm", line: 3, column: 3))
    static let museum = POI(ref: OSMRef(.way, 20), coordinate: Coordinate(lat: 43.7310, lon: 7.4230), category: "museum",
        name: "Museum", localizedNames: [:], tags: [:], location: SourceLocation(file: "map.osm", line: 9, column: 3))
    static let categories = ["toilet", "museum", "atm"].map { PackCategory(id: $0, priority: 1, labels: ["en": $0]) }

    static let cards = "card_id,title\ntoilet,Toilets\n"
    static let situations = "situation_id,card_id,title\nnow,toilet,Now\n"
    static let actions = "action_id,situation_id,kind,target,label\nnearby,now,nearby,toilet,Nearby\n"
    static let routes = "route_id,name\nwalk,Walk\n"
    static let waypoints = "route_id,sequence,poi,lat,lon\nwalk,1,n10,,\nwalk,2,w20,,\n"

    /// Runs reader + validator over the files (defaults for those not given).
    static func run(
        _ files: [String: String], locales: [String] = ["en"], stops: Set<String> = []
    ) throws -> (EditorialContent, [Diagnostic]) {
        let dir = try TestPaths.temporaryDirectory("editorial")
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = [
            "cards.csv": cards, "situations.csv": situations, "actions.csv": actions, "routes.csv": routes,
            "route_waypoints.csv": waypoints,
        ].merging(files) { _, new in new }
        for (name, text) in all where !text.isEmpty {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let bag = DiagnosticBag()
        var city = city
        city.locales = locales
        let content = EditorialReader.read(
            directory: dir.path, displayDirectory: "editorial", defaultLocale: "en", locales: locales, bag: bag)
        let checked = EditorialValidator.validate(
            content, context: EditorialContext(city: city, pois: [toilet, museum], categories: categories, stopIDs: stops),
            bag: bag)
        return (checked, bag.diagnostics)
    }

    static func codes(_ files: [String: String], locales: [String] = ["en"], stops: Set<String> = []) throws -> [String] {
        try run(files, locales: locales, stops: stops).1.map(\.code)
    }

    @Test func baselineIsClean() throws {
        let (content, diagnostics) = try Self.run([:])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(content.cards.count == 1 && content.situations.count == 1 && content.actions.count == 1)
        #expect(content.routes.first?.waypoints.map(\.coordinate) == [Self.toilet.coordinate, Self.museum.coordinate])
    }

    @Test func duplicateID() throws {
        let (_, d) = try Self.run(["cards.csv": "card_id,title\ntoilet,Toilets\ntoilet,Again\n"])
        let dup = try #require(d.first { $0.code == "editorial.duplicate_id" })
        #expect(dup.location?.description == "editorial/cards.csv:3:1")
        #expect(dup.notes.first?.location?.line == 2)
        #expect(!(try Self.codes(["cards.csv": "card_id,title\ntoilet,Toilets\nother,Again\n"])).contains("editorial.duplicate_id"))
    }

    @Test func unknownReference() throws {
        #expect(try Self.codes(["situations.csv": "situation_id,card_id,title\nnow,toilets,Now\n"]).contains("editorial.unknown_reference"))
        #expect(try Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,later,text,,T\n"]).contains("editorial.unknown_reference"))
        #expect(try Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,route,nowhere,R\n"]).contains("editorial.unknown_reference"))
        #expect(try Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,departures,S1,D\n"]).contains("editorial.unknown_reference"))
        #expect(try !Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,departures,S1,D\n"], stops: ["S1"]).contains("editorial.unknown_reference"))
        #expect(try !Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,route,walk,R\n"]).contains("editorial.unknown_reference"))
        #expect(try Self.codes(["route_waypoints.csv": "route_id,sequence,lat,lon\nother,1,43.73,7.42\n" ]).contains("editorial.unknown_reference"))
    }

    @Test func unreachable() throws {
        let hidden = "card_id,title,home\ntoilet,Toilets,1\nlost,Lost,0\n"
        #expect(try Self.codes(["cards.csv": hidden]).contains("editorial.unreachable"))
        // A card action from a home card makes it reachable.
        let link = "action_id,situation_id,kind,target,label\nnearby,now,nearby,toilet,Nearby\ngo,now,card,lost,Lost\n"
        #expect(try !Self.codes(["cards.csv": hidden, "actions.csv": link]).contains("editorial.unreachable"))
    }

    @Test func referenceCycle() throws {
        let cards = "card_id,title\ntoilet,Toilets\nhealth,Health\n"
        let situations = "situation_id,card_id,title\nnow,toilet,Now\nill,health,Ill\n"
        let cycle = "action_id,situation_id,kind,target,label\na,now,card,health,H\nb,ill,situation,now,N\n"
        let d = try Self.run(["cards.csv": cards, "situations.csv": situations, "actions.csv": cycle]).1
        let found = try #require(d.first { $0.code == "editorial.reference_cycle" })
        #expect(found.message.contains("→"))
        let chain = "action_id,situation_id,kind,target,label\na,now,card,health,H\nb,ill,text,,T\n"
        let ok = try Self.run(["cards.csv": cards, "situations.csv": situations, "actions.csv": chain + ""]).1
        #expect(!ok.map(\.code).contains("editorial.reference_cycle"))
    }

    @Test func categoryWithoutPOI() throws {
        #expect(try Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,nearby,atm,ATM\n"]).contains("editorial.category_without_poi"))
        #expect(try !Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\na,now,nearby,toilet,T\n"]).contains("editorial.category_without_poi"))
    }

    @Test func invalidAction() throws {
        for bad in ["a,now,teleport,x,T", "a,now,call,call me,T", "a,now,nearby,,T", "a,now,nearby,spaceport,T", "a,now,text,,T"] {
            #expect(try Self.codes(["actions.csv": "action_id,situation_id,kind,target,label\n\(bad)\n"]).contains("editorial.invalid_action"), "\(bad)")
        }
        let good = "action_id,situation_id,kind,target,label,text\na,now,call,+377 93 15 30 15,Call,\nb,now,call,17,Police,\nc,now,text,,Tip,Hello\n"
        #expect(try !Self.codes(["actions.csv": good]).contains("editorial.invalid_action"))
    }

    @Test func missingTranslation() throws {
        let d = try Self.run(["cards.csv": "card_id,title,title:de\ntoilet,Toilets,\n"], locales: ["en", "de"]).1
        #expect(d.map(\.code).contains("editorial.missing_translation"))
        let situations = "situation_id,card_id,title,title:de\nnow,toilet,Now,Jetzt\n"
        let actions = "action_id,situation_id,kind,target,label,label:de\nnearby,now,nearby,toilet,Nearby,In der Nähe\n"
        let routes = "route_id,name,name:de\nwalk,Walk,Spaziergang\n"
        let ok = try Self.run(["cards.csv": "card_id,title,title:de\ntoilet,Toilets,Toiletten\n", "situations.csv": situations,
            "actions.csv": actions, "routes.csv": routes], locales: ["en", "de"]).1
        #expect(!ok.map(\.code).contains("editorial.missing_translation"), "\(ok)")
    }

    @Test func routeUnknownPOI() throws {
        #expect(try Self.codes(["route_waypoints.csv": "route_id,sequence,poi\nwalk,1,n10\nwalk,2,n99\n"]).contains("editorial.route_unknown_poi"))
        // Stable id 81 = way 20 (20 × 4 + 1), OSM ref forms n10 and node/10.
        let (content, d) = try Self.run(["route_waypoints.csv": "route_id,sequence,poi\nwalk,1,node/10\nwalk,2,81\n"])
        #expect(d.isEmpty, "\(d)")
        #expect(content.routes.first?.waypoints.count == 2)
    }

    @Test func routeTooFewWaypoints() throws {
        #expect(try Self.codes(["route_waypoints.csv": "route_id,sequence,poi\nwalk,1,n10\n"]).contains("editorial.route_too_few_waypoints"))
        #expect(try !Self.codes([:]).contains("editorial.route_too_few_waypoints"))
    }

    @Test func routeDuplicateSequence() throws {
        let d = try Self.codes(["route_waypoints.csv": "route_id,sequence,poi,lat,lon\nwalk,1,n10,,\nwalk,1,,43.735,7.425\n"])
        #expect(d.contains("editorial.route_duplicate_sequence"))
        #expect(try !Self.codes(["route_waypoints.csv": "route_id,sequence,poi,lat,lon\nwalk,1,n10,,\nwalk,2,,43.735,7.425\n"]).contains("editorial.route_duplicate_sequence"))
    }

    @Test func routeWaypointOutsideBBox() throws {
        // Swapped lat/lon is the classic mistake.
        #expect(try Self.codes(["route_waypoints.csv": "route_id,sequence,poi,lat,lon\nwalk,1,n10,,\nwalk,2,,7.425,43.735\n"]).contains("editorial.route_waypoint_outside_bbox"))
        #expect(try !Self.codes(["route_waypoints.csv": "route_id,sequence,poi,lat,lon\nwalk,1,n10,,\nwalk,2,,43.735,7.425\n"]).contains("editorial.route_waypoint_outside_bbox"))
    }

    @Test func routeImplausibleLeg() throws {
        let far = "route_id,sequence,lat,lon\nwalk,1,43.721,7.401\nwalk,2,43.759,7.439\n"  // ≈ 5.2 km
        let same = "route_id,sequence,lat,lon\nwalk,1,43.73,7.42\nwalk,2,43.73,7.42\n"
        let fine = "route_id,sequence,lat,lon\nwalk,1,43.73,7.42\nwalk,2,43.732,7.422\n"
        #expect(try Self.codes(["route_waypoints.csv": far]).contains("editorial.route_implausible_leg"))
        #expect(try Self.codes(["route_waypoints.csv": same]).contains("editorial.route_implausible_leg"))
        #expect(try !Self.codes(["route_waypoints.csv": fine]).contains("editorial.route_implausible_leg"))
    }

    @Test func invalidWaypoint() throws {
        for bad in ["walk,2,,,,", "walk,2,n10,43.73,7.42,", "walk,2,bogus,,,", "walk,2,,43.73,7.42,2"] {
            let file = "route_id,sequence,poi,lat,lon,radius\nwalk,1,n10,,,\n\(bad)\n"
            #expect(try Self.codes(["route_waypoints.csv": file]).contains("editorial.invalid_waypoint"), "\(bad)")
        }
        let good = "route_id,sequence,poi,lat,lon,radius\nwalk,1,n10,,,\nwalk,2,,43.732,7.422,40\n"
        let (content, d) = try Self.run(["route_waypoints.csv": good])
        #expect(d.isEmpty, "\(d)")
        #expect(content.routes.first?.waypoints.last?.radius == 40)
        #expect(content.routes.first?.waypoints.first?.radius == 25)
    }

    @Test func poiReferenceForms() {
        #expect(EditorialReader.poiReference("n123") == 492)
        #expect(EditorialReader.poiReference("node/123") == 492)
        #expect(EditorialReader.poiReference("w5") == 21)
        #expect(EditorialReader.poiReference("relation/5") == 22)
        #expect(EditorialReader.poiReference("492") == 492)
        for bad in ["", "x12", "node/", "node/-3", "n", "n-1", "way/abc", "0"] { #expect(EditorialReader.poiReference(bad) == nil, "\(bad)") }
    }

    @Test func phoneNumbers() {
        for good in ["112", "17", "+377 93 15 30 15", "(0)93-15.30.15"] { #expect(InvalidActionRule.isPhoneNumber(good), "\(good)") }
        for bad in ["1", "call", "+", "12+34", "1234567890123456"] { #expect(!InvalidActionRule.isPhoneNumber(bad), "\(bad)") }
    }
}
