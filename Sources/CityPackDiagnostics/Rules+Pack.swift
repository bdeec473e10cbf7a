private typealias Base = RuleExampleCity

// Rules about the build as a whole. They stay below every stage because `pack.io_failure` is reported by all of
// them (the readers, the compiler, the CLI's report writers); `pack.empty` and `pack.rules_not_run` are the
// compiler's, kept with it in one family.

extension Rules {
    public static let packIOFailure = RuleDescription(
        "pack.io_failure", .pack, .error, "A source could not be read or an artifact could not be written",
        title: "I/O failure",
        rationale: "I/O failures must be reported with the path, never as a crash or a half-written pack.",
        exampleWaiver: "Needs a file system that fails (an unreadable source or an unwritable output); RuleExampleTests.ioFailureIsReported builds into an output path that is a file.")
    public static let packEmpty = RuleDescription(
        "pack.empty", .pack, .warning, "The pack holds no POIs and no stops",
        title: "Empty pack",
        rationale: "An empty pack is almost always a wrong bounding box, profile or source path.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(
                Base.edit(Base.cityYAML, "  gtfs: [gtfs/]\n", ""), "[7.40, 43.72, 7.44, 43.76]", "[7.50, 43.80, 7.54, 43.84]"),
            passing: Base.edit(Base.cityYAML, "  gtfs: [gtfs/]\n", "")))

    public static let packRulesNotRun = RuleDescription(
        "pack.rules_not_run", .pack, .info,
        "Reading a source gave errors, so the checks that need what could not be read did not run",
        title: "Rules not run",
        rationale: "`check` runs every rule it can on what was read, so one run shows every problem; this says which "
            + "checks were left out (they run once the reading errors are fixed), so a clean rerun is not a surprise.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,,x\n"),
            passing: Base.stops))

    public static let packCacheIgnored = RuleDescription(
        "pack.cache_ignored", .pack, .note,
        "An entry of the build cache (`<output>/.cache/<city>/`) was damaged or not this city's, so the stage ran instead",
        title: "Cache entry ignored",
        rationale: "The build cache only saves time: an entry that fails its checks (magic, version, city, stage, "
            + "length, SHA-256 of its payload) is never trusted, the stage runs as in a clean build and the entry is "
            + "replaced. The note says why, in case a disk or a copy damages the cache again and again.",
        exampleWaiver: "Needs a damaged cache entry, which an input file cannot make; "
            + "BuildCacheTests.damagedEntriesAreIgnoredWithANote flips a byte, truncates and swaps entries.")
}
