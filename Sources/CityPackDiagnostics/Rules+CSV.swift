extension Rules {
    /// CSV rules (RFC 4180 scanner). Filled by the transit work.
    static let csvRules: [RuleDescription] = []
}
