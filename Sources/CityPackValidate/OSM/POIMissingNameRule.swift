import CityPackDiagnostics
import CityPackModel

/// Warns about POIs with no name in any locale: users will see only their category. Categories whose POIs
/// are usually unnamed (toilets, ATMs, drinking water: `expects_name: false` in the profile) are not reported.
public struct POIMissingNameRule: POIRule {
    public static let rule = Rules.osmPOIMissingName
    public init() {}

    public func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        for poi in pois where poi.name == nil && poi.localizedNames.isEmpty
            && context.categories[poi.category]?.expectsName != false
        {
            bag.report(
                Self.rule, "\(poi.category) \(poi.ref) has no name (no name or name:xx tag)", at: poi.location,
                entity: poi.ref.description)
        }
        return []
    }
}
