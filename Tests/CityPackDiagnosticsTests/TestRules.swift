import CityPackDiagnostics

/// Rules for the bag and baseline tests. Only a rule's code and default severity matter here, and the real
/// descriptions live in the stages above this module, so these stand in for them with the same codes.
enum TestRules {
    static let poiMissingName = RuleDescription(
        "osm.poi_missing_name", .osm, .warning, "A POI has no name", rationale: "A test stand-in.")
    static let duplicatePOI = RuleDescription(
        "osm.duplicate_poi", .osm, .warning, "Two POIs at one position", rationale: "A test stand-in.")
    static let wayOneNode = RuleDescription(
        "osm.way_one_node", .osm, .warning, "A way with one node", rationale: "A test stand-in.")
    static let duplicateKey = RuleDescription(
        "gtfs.duplicate_key", .gtfs, .error, "A key repeats", rationale: "A test stand-in.")
}
