import CityPackDiagnostics
import CityPackModel

/// A rule over the normalised POIs of a city. Rules read the model, never raw text.
package protocol POIRule: Sendable {
    /// The catalogued rule this type checks.
    static var rule: RuleDescription { get }
    /// Reports findings into `bag`; returns the ids of POIs the rule removes from the pack (usually none).
    func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef>
}

/// What POI rules may consult besides the POIs: the city and the profile's categories.
package struct POIRuleContext: Sendable {
    package var city: City
    /// Categories by id.
    package var categories: [String: PackCategory]

    package init(city: City, categories: [PackCategory] = []) {
        self.city = city
        self.categories = Dictionary(categories.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }
}

/// Runs every POI rule, in registry order, and returns the POIs that stay in the pack.
package enum POIValidator {
    /// The POI rules, in the order they run.
    package static let rules: [any POIRule] = [POIOutsideBBoxRule(), POIMissingNameRule(), DuplicatePOIRule(), POIOpeningHoursRule()]

    /// Validates `pois` and returns the ones kept, in their original order.
    package static func validate(_ pois: [POI], city: City, categories: [PackCategory] = [], bag: DiagnosticBag) -> [POI] {
        let context = POIRuleContext(city: city, categories: categories)
        var removed: Set<OSMRef> = []
        var remaining = pois
        for rule in rules {
            let dropped = rule.check(remaining, context: context, bag: bag)
            if !dropped.isEmpty {
                removed.formUnion(dropped)
                remaining.removeAll { dropped.contains($0.ref) }
            }
        }
        return remaining
    }
}
