import CityPackDiagnostics
import CityPackModel

/// Warns about POIs with no name in any locale: users will see only their category. Categories where a
/// name is unusual (toilets, ATMs, drinking water, bus stops) are still reported, at the rule's severity,
/// because a name such as the operator's helps users choose between two nearby ones.
public struct POIMissingNameRule: POIRule {
    public static let rule = Rules.osmPOIMissingName
    public init() {}

    public func check(_ pois: [POI], city: City, bag: DiagnosticBag) -> Set<OSMRef> {
        for poi in pois where poi.name == nil && poi.localizedNames.isEmpty {
            bag.report(
                Self.rule, "\(poi.category) \(poi.ref) has no name (no name or name:xx tag)", at: poi.location,
                entity: poi.ref.description)
        }
        return []
    }
}
