import CityPackDiagnostics
import CityPackModel

/// Finds POIs of the same category at exactly the same position: usually a mapping duplicate (a node and a
/// copy of it), which users would see twice. Both stay in the pack; the finding points at the second with a
/// note on the first.
public struct DuplicatePOIRule: POIRule {
    public static let rule = Rules.osmDuplicatePOI
    public init() {}

    private struct Key: Hashable {
        var lat: Double
        var lon: Double
        var category: String
    }

    public func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        var first: [Key: POI] = [:]
        for poi in pois.sorted(by: { $0.ref < $1.ref }) {
            let key = Key(lat: poi.coordinate.lat, lon: poi.coordinate.lon, category: poi.category)
            if let earlier = first[key] {
                bag.report(
                    Self.rule,
                    "\(poi.category) \(poi.ref) is at the same position as \(earlier.ref) (\(poi.coordinate.lat),\(poi.coordinate.lon))",
                    at: poi.location, entity: poi.ref.description,
                    notes: [.init("\(earlier.ref) is here", at: earlier.location)])
            } else {
                first[key] = poi
            }
        }
        return []
    }
}
