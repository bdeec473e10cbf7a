import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let osmPOIMissingName = RuleDescription(
        "osm.poi_missing_name", .osm, .warning, "A POI kept in the pack has no name in any locale",
        title: "POI without a name",
        rationale: "Users see POIs by name; unnamed ones show only their category.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "    <tag k=\"name\" v=\"Pharmacie Centrale\"/>\n", ""),
            passing: Base.edit(
                Base.osm, "<tag k=\"name\" v=\"Pharmacie Centrale\"/>", "<tag k=\"name:fr\" v=\"Pharmacie Centrale\"/>")))
}

/// Warns about POIs with no name in any locale: users will see only their category. Categories whose POIs
/// are usually unnamed (toilets, ATMs, drinking water: `expects_name: false` in the profile) are not reported.
package struct POIMissingNameRule: POIRule {
    package static let rule = Rules.osmPOIMissingName
    package init() {}

    package func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        for poi in pois where poi.name == nil && poi.localizedNames.isEmpty
            && context.categories[poi.category]?.expectsName != false
        {
            bag.report(Self.rule, .unnamed(poi), at: poi.location, entity: poi.ref.description)
        }
        return []
    }
}

extension String {
    fileprivate static func unnamed(_ poi: POI) -> String {
        "\(poi.category) \(poi.ref) has no name (no name or name:xx tag)"
    }
}
