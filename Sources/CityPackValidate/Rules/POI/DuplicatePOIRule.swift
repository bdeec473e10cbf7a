import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let osmDuplicatePOI = RuleDescription(
        "osm.duplicate_poi", .osm, .warning, "Two POIs of the same category sit at the same position",
        title: "Duplicate POI",
        rationale: "Usually a mapping duplicate (node and area, or a copy); users would see the place twice.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "</osm>", secondPharmacy(lat: "43.7300000") + "</osm>"),
            passing: Base.edit(Base.osm, "</osm>", secondPharmacy(lat: "43.7320000") + "</osm>")))

    /// A second pharmacy at `lat`, on the first one's longitude.
    private static func secondPharmacy(lat: String) -> String {
        "  <node id=\"8\" lat=\"\(lat)\" lon=\"7.4100000\">\n    <tag k=\"amenity\" v=\"pharmacy\"/>\n"
            + "    <tag k=\"name\" v=\"Pharmacie du Rocher\"/>\n  </node>\n"
    }
}

/// Finds POIs of the same category at exactly the same position: usually a mapping duplicate (a node and a
/// copy of it), which users would see twice. Both stay in the pack; the finding points at the second with a
/// note on the first.
package struct DuplicatePOIRule: POIRule {
    package static let rule = Rules.osmDuplicatePOI
    package init() {}

    private struct Key: Hashable {
        var lat: Double
        var lon: Double
        var category: String
    }

    package func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        var first: [Key: POI] = [:]
        for poi in pois.sorted(by: { $0.ref < $1.ref }) {
            let key = Key(lat: poi.coordinate.lat, lon: poi.coordinate.lon, category: poi.category)
            if let earlier = first[key] {
                bag.report(
                    Self.rule, .samePosition(poi, as: earlier), at: poi.location, entity: poi.ref.description,
                    notes: [.init(.isHere(earlier), at: earlier.location)])
            } else {
                first[key] = poi
            }
        }
        return []
    }
}

extension String {
    fileprivate static func samePosition(_ poi: POI, as earlier: POI) -> String {
        "\(poi.category) \(poi.ref) is at the same position as \(earlier.ref) (\(poi.coordinate.lat),\(poi.coordinate.lon))"
    }

    fileprivate static func isHere(_ poi: POI) -> String { "\(poi.ref) is here" }
}
