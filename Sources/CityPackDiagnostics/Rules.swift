/// The catalogue of every rule CityPack can report. Codes are stable; add, never rename.
///
/// Each family lives in its own extension file (`Rules+OSM.swift`, `Rules+CSV.swift`, …) and lists its
/// rules in a `...Rules` array; ``RuleCatalog/all`` joins them.
public enum Rules {}

/// Lookup over all catalogued rules.
public enum RuleCatalog {
    /// Every rule, in catalogue order.
    public static let all: [RuleDescription] =
        Rules.cityRules + Rules.osmRules + Rules.csvRules + Rules.gtfsRules + Rules.editorialRules
        + Rules.copyRules + Rules.packRules

    private static let byCode: [String: RuleDescription] = Dictionary(
        all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The rule with this code, if any.
    public static func rule(_ code: String) -> RuleDescription? { byCode[code] }
}
