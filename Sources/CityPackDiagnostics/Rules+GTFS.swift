private typealias Base = RuleExampleCity

extension Rules {
    // Feed and archive level.
    public static let gtfsInvalidArchive = RuleDescription(
        "gtfs.invalid_archive", .gtfs, .error, "The feed is neither a directory nor a readable zip archive",
        title: "Invalid feed archive",
        rationale: "Nothing can be read from it; the build must say so with the path instead of crashing.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "gtfs: [gtfs/]", "gtfs: [map.osm]"),
            passing: Base.cityYAML))
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
    public static let gtfsDuplicateKey = RuleDescription(
        "gtfs.duplicate_key", .gtfs, .error, "A primary key repeats within a table",
        title: "Duplicate key",
        rationale: "References to the key become ambiguous; consumers keep different rows.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.stops + "S2,Casino Nord,43.741,7.421,0,\n",
            passing: Base.stops))
    public static let gtfsForeignKeyViolation = RuleDescription(
        "gtfs.foreign_key_violation", .gtfs, .error, "A reference names an ID that its target table lacks",
        title: "Foreign key violation",
        rationale: "A dangling reference drops the row or whole trips in every consumer.",
        example: RuleExample(
            file: "gtfs/trips.txt",
            triggering: Base.edit(Base.trips, "R1,WK,T2", "R2,WK,T2"),
            passing: Base.trips))
    public static let gtfsMissingAgencyID = RuleDescription(
        "gtfs.missing_agency_id", .gtfs, .error, "agency_id is empty although the feed has several agencies",
        title: "Missing agency ID",
        rationale: "The route's operator is then ambiguous (GTFS makes agency_id conditionally required).",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,", "R1,,"),
            passing: Base.routes))
    // Stops.
    public static let gtfsCoordinateOutOfRange = RuleDescription(
        "gtfs.coordinate_out_of_range", .gtfs, .error, "A latitude is outside ±90° or a longitude outside ±180°",
        title: "Coordinate out of range",
        rationale: "Such a point is not on Earth; maps and distance checks break.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "143.74,7.42"),
            passing: Base.stops))
    public static let gtfsPointNearOrigin = RuleDescription(
        "gtfs.point_near_origin", .gtfs, .error, "A point lies within 1° of (0, 0)",
        title: "Point near origin",
        rationale: "Almost always a missing coordinate written as zeros.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "0.0,0.0"),
            passing: Base.stops))
    public static let gtfsPointNearPole = RuleDescription(
        "gtfs.point_near_pole", .gtfs, .error, "A point lies within 1° of a pole",
        title: "Point near a pole",
        rationale: "Almost always swapped or corrupt coordinates; no transit runs there.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "89.5,7.42"),
            passing: Base.stops))
    public static let gtfsPointOutsideBBox = RuleDescription(
        "gtfs.point_outside_pack_bbox", .gtfs, .warning, "A stop lies outside the city bounding box",
        title: "Stop outside the bounding box",
        rationale: "The pack covers its box; stops outside are useless to users and hint at a wrong feed or box.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "43.74,7.48"),
            passing: Base.stops))
    public static let gtfsStopWithoutLocation = RuleDescription(
        "gtfs.stop_without_location", .gtfs, .error, "A stop, station or entrance has no stop_lat/stop_lon",
        title: "Stop without location",
        rationale: "GTFS requires coordinates for location_type 0–2; the stop cannot be placed on a map.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "Casino,43.74,7.42", "Casino,,"),
            passing: Base.stops))
    public static let gtfsMissingStopName = RuleDescription(
        "gtfs.missing_stop_name", .gtfs, .error, "A stop, station or entrance has no stop_name",
        title: "Missing stop name",
        rationale: "Riders identify stops by name; GTFS requires it for location_type 0–2.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,", "S2,,"),
            passing: Base.stops))
    public static let gtfsInvalidParentStation = RuleDescription(
        "gtfs.invalid_parent_station", .gtfs, .error, "parent_station points at a stop of the wrong location_type",
        title: "Invalid parent station",
        rationale: "Stops and entrances belong to stations and boarding areas to platforms; other links break hierarchy.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,S1\n")
                + "ST,Casino,43.74,7.42,1,\n",
            passing: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,ST\n")
                + "ST,Casino,43.74,7.42,1,\n"))
    public static let gtfsStopWithoutStopTime = RuleDescription(
        "gtfs.stop_without_stop_time", .gtfs, .warning, "A stop (location_type 0) is served by no trip",
        title: "Stop without stop times",
        rationale: "Unused stops clutter the map with places no vehicle serves.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.stops + "S4,Monte-Carlo,43.745,7.425,0,\n",
            passing: Base.stops + "S4,Monte-Carlo,43.745,7.425,1,\n"))
    // Routes.
    public static let gtfsRouteNameMissing = RuleDescription(
        "gtfs.route_name_missing", .gtfs, .error, "A route has neither route_short_name nor route_long_name",
        title: "Route without a name",
        rationale: "Riders cannot tell the route apart from others.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,,,3"),
            passing: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,1,,3")))
    public static let gtfsDuplicateRouteName = RuleDescription(
        "gtfs.duplicate_route_name", .gtfs, .warning,
        "Two routes of the same agency and route_type have the same short and long names",
        title: "Duplicate route name",
        rationale: "Riders and trip planners cannot tell them apart; usually one route was split or copied.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.routes + "R2,A,1,Port – Larvotto,3\n",
            passing: Base.routes + "R2,A,2,Port – Larvotto,3\n"))
    public static let gtfsRouteShortLongNameEqual = RuleDescription(
        "gtfs.route_short_long_name_equal", .gtfs, .warning, "route_short_name equals route_long_name",
        title: "Short name equals long name",
        rationale: "Apps show both names side by side; the long name should describe the route, not repeat it.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Larvotto,Larvotto,3"),
            passing: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Larvotto,Port – Larvotto,3")))
    public static let gtfsRouteShortNameTooLong = RuleDescription(
        "gtfs.route_short_name_too_long", .gtfs, .warning, "route_short_name has more than 12 characters",
        title: "Route short name too long",
        rationale: "Short names are shown in badges; long text belongs in route_long_name.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Port – Larvotto,,3"),
            passing: Base.routes))
    // Trips and stop times.
    public static let gtfsUnusableTrip = RuleDescription(
        "gtfs.unusable_trip", .gtfs, .warning, "A trip has fewer than two stop_times",
        title: "Unusable trip",
        rationale: "A trip must go from one stop to another to be usable for routing.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T2,09:05:00,09:05:00,S2,2,1.4\nT2,09:10:00,09:10:00,S1,3,2.8\n", ""),
            passing: Base.stopTimes))
    public static let gtfsUnusedTrip = RuleDescription(
        "gtfs.unused_trip", .gtfs, .warning, "A trip has no stop_times",
        title: "Trip without stop times",
        rationale: "The trip is dead weight; usually stop_times were filtered without trips.",
        example: RuleExample(file: "gtfs/trips.txt", triggering: Base.trips + "R1,WK,T3,,SH1\n", passing: Base.trips))
    public static let gtfsArrivalBeforePreviousDeparture = RuleDescription(
        "gtfs.arrival_before_previous_departure", .gtfs, .error,
        "A stop_time arrives before the previous stop_time of the trip departs",
        title: "Arrival before previous departure",
        rationale: "Time cannot go backwards; journey planners produce nonsense itineraries.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3", "T1,08:05:30,08:10:00,S3"),
            passing: Base.stopTimes))
    public static let gtfsOnlyArrivalOrDeparture = RuleDescription(
        "gtfs.only_arrival_or_departure", .gtfs, .error, "A stop_time has arrival_time or departure_time but not both",
        title: "Only arrival or departure time",
        rationale: "GTFS requires both or neither; the missing one cannot be inferred safely.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2", "T1,08:05:00,,S2"),
            passing: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2", "T1,,,S2")))
    public static let gtfsMissingTripEdge = RuleDescription(
        "gtfs.missing_trip_edge", .gtfs, .error, "The first or last stop_time of a trip has no times",
        title: "Untimed first or last stop",
        rationale: "Trip start and end must be timed for the trip to be placed in the day.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3", "T1,,,S3"),
            passing: Base.stopTimes))
    public static let gtfsDuplicateStopSequence = RuleDescription(
        "gtfs.duplicate_stop_sequence", .gtfs, .error, "Two stop_times of one trip share a stop_sequence",
        title: "Duplicate stop sequence",
        rationale: "The order of the two stops is then undefined.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,", "T1,08:10:00,08:10:00,S3,2,"),
            passing: Base.stopTimes))
    public static let gtfsDecreasingStopTimeDistance = RuleDescription(
        "gtfs.decreasing_stop_time_distance", .gtfs, .error,
        "shape_dist_traveled decreases along a trip's stop_times",
        title: "Decreasing stop time distance",
        rationale: "Distance travelled can only grow; shape projection breaks otherwise.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,2.8", "T1,08:10:00,08:10:00,S3,3,1.0"),
            passing: Base.stopTimes))
    public static let gtfsFastTravel = RuleDescription(
        "gtfs.fast_travel", .gtfs, .warning, "Travel between consecutive stops is faster than the route type allows",
        title: "Fast travel",
        rationale: "Usually wrong times or misplaced stops (caps: e.g. bus 150 km/h, tram 100 km/h, rail 500 km/h).",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2,2,1.4\nT1,08:10:00,08:10:00,S3,3,2.8",
                "T1,08:01:00,08:01:00,S3,2,2.8\nT1,08:10:00,08:10:00,S2,3,4.2"),
            passing: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2,2,1.4\nT1,08:10:00,08:10:00,S3,3,2.8",
                "T1,08:05:00,08:06:00,S3,2,2.8\nT1,08:10:00,08:10:00,S2,3,4.2")))
    public static let gtfsBlockOverlap = RuleDescription(
        "gtfs.block_overlap", .gtfs, .error, "Two trips of one block and service overlap in time",
        title: "Overlapping trips in a block",
        rationale: "One vehicle cannot run two trips at once.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T2,09:00:00,09:00:00,S3", "T2,08:08:00,08:08:00,S3"),
            passing: Base.stopTimes))
    // Shapes.
    public static let gtfsDecreasingShapeDistance = RuleDescription(
        "gtfs.decreasing_shape_distance", .gtfs, .error, "shape_dist_traveled decreases along a shape",
        title: "Decreasing shape distance",
        rationale: "Distance along a line can only grow.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.edit(Base.shapes, "SH1,43.75,7.43,3,2.8", "SH1,43.75,7.43,3,1.2"),
            passing: Base.shapes))
    public static let gtfsDuplicateShapeSequence = RuleDescription(
        "gtfs.duplicate_shape_sequence", .gtfs, .error, "Two points of one shape share a shape_pt_sequence",
        title: "Duplicate shape sequence",
        rationale: "The order of the points, and so the drawn line, is undefined.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.edit(Base.shapes, "SH1,43.75,7.43,3,", "SH1,43.75,7.43,2,"),
            passing: Base.shapes))
    public static let gtfsUnusedShape = RuleDescription(
        "gtfs.unused_shape", .gtfs, .warning, "A shape is referenced by no trip",
        title: "Unused shape",
        rationale: "Dead weight in the pack; often a sign of a broken shape_id reference.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.shapes + "SH2,43.73,7.41,1,0\nSH2,43.75,7.43,2,2.8\n",
            passing: Base.shapes))
    // Calendars.
    public static let gtfsCalendarRangeOutOfOrder = RuleDescription(
        "gtfs.calendar_range_out_of_order", .gtfs, .error, "A calendar's start_date is after its end_date",
        title: "Calendar range out of order",
        rationale: "The service would never run.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20351231,20260101"),
            passing: Base.calendar))
    public static let gtfsServiceNoActiveDay = RuleDescription(
        "gtfs.service_no_active_day", .gtfs, .warning, "A calendar row has every weekday flag set to 0",
        title: "Service without active days",
        rationale: "It runs only through calendar_dates additions, which is usually a mistake.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "WK,1,1,1,1,1,0,0", "WK,0,0,0,0,0,0,0"),
            passing: Base.calendar))
    public static let gtfsExpiredCalendar = RuleDescription(
        "gtfs.expired_calendar", .gtfs, .warning, "A service ends before the build date",
        title: "Expired calendar",
        rationale: "Expired services show riders departures that no longer exist.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20250101,20251231"),
            passing: Base.calendar))
    public static let gtfsFeedExpiresSoon = RuleDescription(
        "gtfs.feed_expires_soon", .gtfs, .warning, "The feed's last service date is within 7 days of the build date",
        title: "Feed expires soon",
        rationale: "The pack will carry no timetable soon after it ships.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20260101,20260605"),
            passing: Base.calendar))
    // Frequencies and transfers.
    public static let gtfsInvalidHeadway = RuleDescription(
        "gtfs.invalid_headway", .gtfs, .error, "A frequency has headway_secs ≤ 0 or end_time ≤ start_time",
        title: "Invalid headway",
        rationale: "Such a frequency generates no or infinitely many trips.",
        example: RuleExample(
            file: "gtfs/frequencies.txt",
            triggering: frequencies("T1,08:00:00,09:00:00,0\n"),
            passing: frequencies("T1,08:00:00,09:00:00,600\n")))
    public static let gtfsOverlappingFrequency = RuleDescription(
        "gtfs.overlapping_frequency", .gtfs, .error, "Two frequencies of one trip overlap in time",
        title: "Overlapping frequencies",
        rationale: "The vehicle count during the overlap is undefined.",
        example: RuleExample(
            file: "gtfs/frequencies.txt",
            triggering: frequencies("T1,08:00:00,09:00:00,600\nT1,08:30:00,10:00:00,600\n"),
            passing: frequencies("T1,08:00:00,09:00:00,600\nT1,09:00:00,10:00:00,600\n")))

    static let gtfsRules: [RuleDescription] = [
        gtfsInvalidArchive, gtfsUnsafeArchiveEntry, gtfsArchiveTooLarge, gtfsMissingRequiredFile,
        gtfsMissingCalendar, gtfsMisspelledFile, gtfsUnknownFile, gtfsDuplicateKey, gtfsForeignKeyViolation, gtfsMissingAgencyID,
        gtfsCoordinateOutOfRange, gtfsPointNearOrigin, gtfsPointNearPole, gtfsPointOutsideBBox,
        gtfsStopWithoutLocation, gtfsMissingStopName, gtfsInvalidParentStation, gtfsStopWithoutStopTime,
        gtfsRouteNameMissing, gtfsRouteShortNameTooLong, gtfsDuplicateRouteName, gtfsRouteShortLongNameEqual, gtfsUnusableTrip, gtfsUnusedTrip,
        gtfsArrivalBeforePreviousDeparture, gtfsOnlyArrivalOrDeparture, gtfsMissingTripEdge,
        gtfsDuplicateStopSequence, gtfsDecreasingStopTimeDistance, gtfsFastTravel, gtfsBlockOverlap,
        gtfsDecreasingShapeDistance, gtfsDuplicateShapeSequence, gtfsUnusedShape, gtfsCalendarRangeOutOfOrder,
        gtfsServiceNoActiveDay, gtfsExpiredCalendar, gtfsFeedExpiresSoon, gtfsInvalidHeadway,
        gtfsOverlappingFrequency, gtfsZipBomb, gtfsArchiveTooManyEntries,
    ]

    /// frequencies.txt with `rows`.
    private static func frequencies(_ rows: String) -> String {
        "trip_id,start_time,end_time,headway_secs\n" + rows
    }
}
