extension Rules {
    /// GTFS rules. Filled by the transit work.
    static let gtfsRules: [RuleDescription] = []
}
