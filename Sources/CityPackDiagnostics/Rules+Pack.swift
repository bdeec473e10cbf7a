extension Rules {
    public static let packIOFailure = RuleDescription(
        "pack.io_failure", .pack, .error, "A source could not be read or an artifact could not be written",
        rationale: "I/O failures must be reported with the path, never as a crash or a half-written pack.")
    public static let packEmpty = RuleDescription(
        "pack.empty", .pack, .warning, "The pack holds no POIs and no stops",
        rationale: "An empty pack is almost always a wrong bounding box, profile or source path.")

    static let packRules: [RuleDescription] = [packIOFailure, packEmpty]
}
