import CityPackDiagnostics
import CityPackFormat
import CityPackModel
import CityPackValidate

/// A city, two categories and POIs made in code for the POI rule tests.
enum POIRuleFixture {
    static let city = City(id: "t", name: "T", bbox: BoundingBox(minLon: 7, minLat: 43, maxLon: 8, maxLat: 44))

    static let categories = [
        PackCategory(id: "toilet", priority: 1, labels: [:], synonyms: [:], expectsName: true),
        PackCategory(id: "drinking_water", priority: 2, labels: [:], synonyms: [:], expectsName: false),
    ]

    /// A node POI at line `id + 10` of `c.osm`.
    static func poi(_ id: Int64, _ lat: Double, _ lon: Double, category: String = "toilet", name: String? = "A",
                    names: [String: String] = [:]) -> POI {
        POI(ref: OSMRef(.node, id), coordinate: Coordinate(lat: lat, lon: lon), category: category, name: name,
            localizedNames: names, tags: [:], location: SourceLocation(file: "c.osm", line: Int(id) + 10, column: 3))
    }

    /// Runs one rule; returns the bag and the POIs it drops.
    static func run(_ rule: some POIRule, _ pois: [POI]) -> (DiagnosticBag, Set<OSMRef>) {
        let bag = DiagnosticBag()
        let dropped = rule.check(pois, context: POIRuleContext(city: city, categories: categories), bag: bag)
        return (bag, dropped)
    }
}
