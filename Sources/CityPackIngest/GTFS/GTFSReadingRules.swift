import CityPackDiagnostics

private typealias Base = RuleExampleCity

// The rules `GTFSReader` and `ZipReader` report while opening a feed: the archive, its entries and which files
// are present. Table syntax and values are `csv.*` rules (CSVRules.swift); rules over the feed as read (keys,
// references, geometry, times, calendars) live in CityPackValidate's Rules/GTFS. `RuleCatalog` lists them all.

extension Rules {
    public static let gtfsInvalidArchive = RuleDescription(
        "gtfs.invalid_archive", .gtfs, .error, "The feed is neither a directory nor a readable zip archive",
        title: "Invalid feed archive",
        rationale: "Nothing can be read from it; the build must say so with the path instead of crashing.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "gtfs: [gtfs/]", "gtfs: [map.osm]"),
            passing: Base.cityYAML))
    public static let gtfsFilesInSubfolder = RuleDescription(
        "gtfs.files_in_subfolder", .gtfs, .info, "The feed's files are in one folder inside the archive or folder; they are read from there",
        title: "Files in a subfolder",
        rationale: "GTFS puts the files at the root; a single enclosing folder (as many zip tools make) is harmless.",
        exampleWaiver: "Needs a feed whose root holds only a folder, which a one-file example cannot make; "
            + "GTFSSubfolderTests.oneFolderIsReadWithAnInfo checks it on zips and folders.")
    public static let gtfsFeedNotFound = RuleDescription(
        "gtfs.feed_not_found", .gtfs, .error,
        "No GTFS file at the feed's root or one folder down; says where they are (a zip inside, a deeper folder)",
        title: "Feed not found",
        rationale: "A zip inside the zip, a folder that holds the feed's zip, or files several folders down give "
            + "no GTFS file where a reader looks; naming what is there says what to pass instead of reporting "
            + "every required file as missing.",
        exampleWaiver: "Needs a zip inside a zip or nested folders, which a one-file example cannot make; "
            + "InitCauseTests.initAndBuildNameTheCause checks each layout through the binary.")
    public static let gtfsFilesSplitAcrossSubfolders = RuleDescription(
        "gtfs.invalid_input_files_in_subfolder", .gtfs, .error,
        "The feed's files are split across several folders inside the archive or folder; none is read",
        title: "Files split across folders",
        rationale: "GTFS files must sit together at the root; when they are spread over folders no single folder "
            + "is the feed, and reporting every file as missing would hide the cause (gtfs-validator: "
            + "invalid_input_files_in_subfolder).",
        exampleWaiver: "Needs files in two subfolders, which a one-file example cannot make; "
            + "GTFSSubfolderTests.filesSplitAcrossFoldersAreOneErrorNamingThem checks it on zips and folders.")
    public static let gtfsUnsafeArchiveEntry = RuleDescription(
        "gtfs.unsafe_archive_entry", .gtfs, .error, "A zip entry has an absolute path or `..`; it is ignored",
        title: "Unsafe archive entry",
        rationale: "Such entries are the zip-slip attack; a feed never needs them.",
        exampleWaiver: "Needs a zip archive, which examples (text files) cannot hold; GTFSRuleTests.zipFeedsAndUnsafeEntries builds one and checks the rule.")
    public static let gtfsArchiveTooLarge = RuleDescription(
        "gtfs.archive_too_large", .gtfs, .error, "The feed's decompressed size exceeds the limit",
        title: "Archive too large",
        rationale: "Bounds memory and disk against zip bombs.",
        exampleWaiver: "Needs a zip archive, which examples (text files) cannot hold; GTFSRuleTests.zipFeedsAndUnsafeEntries builds one and checks the rule.")
    public static let gtfsZipBomb = RuleDescription(
        "gtfs.zip_bomb", .gtfs, .error,
        "A zip entry inflates to more than the configured ratio of its compressed size; it is not read",
        title: "Zip bomb",
        rationale: "Text tables compress 5–20×; hundreds of times more is a decompression bomb. Checked while "
            + "inflating, since the sizes in zip headers are written by whoever made the archive.",
        exampleWaiver: "Needs a zip archive, which examples (text files) cannot hold; HostileInputTests.zipBombIsStoppedByRatio builds one and checks the rule.")
    public static let gtfsArchiveTooManyEntries = RuleDescription(
        "gtfs.archive_too_many_entries", .gtfs, .error, "The zip holds more entries than the configured limit",
        title: "Too many archive entries",
        rationale: "A feed has about twenty files; a hundred thousand entries only cost time and memory to list.",
        exampleWaiver: "Needs a zip archive, which examples (text files) cannot hold; HostileInputTests.entryCountLimit builds one and checks the rule.")
    public static let gtfsMissingRequiredFile = RuleDescription(
        "gtfs.missing_required_file", .gtfs, .error, "agency, stops, routes, trips or stop_times is absent",
        title: "Missing required file",
        rationale: "A feed without these files cannot describe any trip.",
        example: RuleExample(file: "gtfs/routes.txt", triggering: nil, passing: Base.routes))
    public static let gtfsMissingCalendar = RuleDescription(
        "gtfs.missing_calendar", .gtfs, .error, "Neither calendar.txt nor calendar_dates.txt is present",
        title: "Missing calendar",
        rationale: "Without service dates no trip ever runs.",
        example: RuleExample(file: "gtfs/calendar.txt", triggering: nil, passing: Base.calendar))
    public static let gtfsMisspelledFile = RuleDescription(
        "gtfs.misspelled_file", .gtfs, .warning, "An unknown file name is one small edit away from a GTFS file the feed lacks",
        title: "Misspelt file name",
        rationale: "`frecuencias.txt` for `frequencies.txt` means a whole table is silently ignored.",
        example: RuleExample(
            file: "gtfs/frequences.txt",
            triggering: "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,600\n",
            passing: nil))
    public static let gtfsUnknownFile = RuleDescription(
        "gtfs.unknown_file", .gtfs, .info, "A file is not part of the GTFS tables CityPack reads",
        title: "Unknown file",
        rationale: "Often a misspelt file name (`frecuencias.txt`), whose data is then silently lost.",
        example: RuleExample(
            file: "gtfs/notes.txt", triggering: "note\nTimetables change on 1 July.\n", passing: nil))
}
