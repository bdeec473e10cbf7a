import CityPackDiagnostics
import CityPackModel
import CityPackSupport

private typealias Base = RuleExampleCity

extension Rules {
    package static let osmOpeningHoursUnreadable = RuleDescription(
        "osm.opening_hours_unreadable", .osm, .warning, "A POI's opening_hours cannot be read, so apps cannot say whether it is open",
        title: "Unreadable opening hours",
        rationale: "Apps show \"open now\" and filter by it from the hours the build parses; a value the parser "
            + "cannot read (a typo such as `Mon`, `sunrise`, free text) is kept as written but answers \"unknown\".",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(
                Base.osm, "<tag k=\"name\" v=\"Pharmacie Centrale\"/>",
                "<tag k=\"name\" v=\"Pharmacie Centrale\"/>\n    <tag k=\"opening_hours\" v=\"Mon-Fri 9am-7pm\"/>"),
            passing: Base.edit(
                Base.osm, "<tag k=\"name\" v=\"Pharmacie Centrale\"/>",
                "<tag k=\"name\" v=\"Pharmacie Centrale\"/>\n    <tag k=\"opening_hours\" v=\"Mo-Fr 09:00-19:00\"/>")))
}

/// Warns about a kept POI whose `opening_hours` the build cannot parse (``OpeningHours/parse(_:)``): the value stays
/// in its tags, but both readers answer "unknown" for it and `--open-now` leaves it out.
package struct POIOpeningHoursRule: POIRule {
    package static let rule = Rules.osmOpeningHoursUnreadable
    package init() {}

    package func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        for poi in pois {
            guard let value = poi.tags["opening_hours"], case .failure(let error) = OpeningHours.parse(value) else { continue }
            bag.report(Self.rule, .unreadable(poi, value, error), at: poi.location, entity: poi.ref.description)
        }
        return []
    }
}

extension String {
    fileprivate static func unreadable(_ poi: POI, _ value: String, _ error: OpeningHours.ParseError) -> String {
        "opening_hours `\(value)` of \(poi.category) \(poi.ref) cannot be read at character \(error.offset + 1): "
            + "\(error.message); apps show it as written but cannot say whether the place is open"
    }
}
