extension Rules {
    // Feed and archive level.
    public static let gtfsInvalidArchive = RuleDescription(
        "gtfs.invalid_archive", .gtfs, .error, "The feed is neither a directory nor a readable zip archive",
        rationale: "Nothing can be read from it; the build must say so with the path instead of crashing.")
    public static let gtfsUnsafeArchiveEntry = RuleDescription(
        "gtfs.unsafe_archive_entry", .gtfs, .error, "A zip entry has an absolute path or `..`; it is ignored",
        rationale: "Such entries are the zip-slip attack; a feed never needs them.")
    public static let gtfsArchiveTooLarge = RuleDescription(
        "gtfs.archive_too_large", .gtfs, .error, "The feed's decompressed size exceeds the limit",
        rationale: "Bounds memory and disk against zip bombs.")
    public static let gtfsZipBomb = RuleDescription(
        "gtfs.zip_bomb", .gtfs, .error,
        "A zip entry inflates to more than the configured ratio of its compressed size; it is not read",
        rationale: "Text tables compress 5–20×; hundreds of times more is a decompression bomb. Checked while "
            + "inflating, since the sizes in zip headers are written by whoever made the archive.")
    public static let gtfsArchiveTooManyEntries = RuleDescription(
        "gtfs.archive_too_many_entries", .gtfs, .error, "The zip holds more entries than the configured limit",
        rationale: "A feed has about twenty files; a hundred thousand entries only cost time and memory to list.")
    public static let gtfsMissingRequiredFile = RuleDescription(
        "gtfs.missing_required_file", .gtfs, .error, "agency, stops, routes, trips or stop_times is absent",
        rationale: "A feed without these files cannot describe any trip.")
    public static let gtfsMissingCalendar = RuleDescription(
        "gtfs.missing_calendar", .gtfs, .error, "Neither calendar.txt nor calendar_dates.txt is present",
        rationale: "Without service dates no trip ever runs.")
    public static let gtfsMisspelledFile = RuleDescription(
        "gtfs.misspelled_file", .gtfs, .warning, "An unknown file name is one small edit away from a GTFS file the feed lacks",
        rationale: "`frecuencias.txt` for `frequencies.txt` means a whole table is silently ignored.")
    public static let gtfsUnknownFile = RuleDescription(
        "gtfs.unknown_file", .gtfs, .info, "A file is not part of the GTFS tables CityPack reads",
        rationale: "Often a misspelt file name (`frecuencias.txt`), whose data is then silently lost.")
    public static let gtfsDuplicateKey = RuleDescription(
        "gtfs.duplicate_key", .gtfs, .error, "A primary key repeats within a table",
        rationale: "References to the key become ambiguous; consumers keep different rows.")
    public static let gtfsForeignKeyViolation = RuleDescription(
        "gtfs.foreign_key_violation", .gtfs, .error, "A reference names an ID that its target table lacks",
        rationale: "A dangling reference drops the row or whole trips in every consumer.")
    public static let gtfsMissingAgencyID = RuleDescription(
        "gtfs.missing_agency_id", .gtfs, .error, "agency_id is empty although the feed has several agencies",
        rationale: "The route's operator is then ambiguous (GTFS makes agency_id conditionally required).")
    // Stops.
    public static let gtfsCoordinateOutOfRange = RuleDescription(
        "gtfs.coordinate_out_of_range", .gtfs, .error, "A latitude is outside ±90° or a longitude outside ±180°",
        rationale: "Such a point is not on Earth; maps and distance checks break.")
    public static let gtfsPointNearOrigin = RuleDescription(
        "gtfs.point_near_origin", .gtfs, .error, "A point lies within 1° of (0, 0)",
        rationale: "Almost always a missing coordinate written as zeros.")
    public static let gtfsPointNearPole = RuleDescription(
        "gtfs.point_near_pole", .gtfs, .error, "A point lies within 1° of a pole",
        rationale: "Almost always swapped or corrupt coordinates; no transit runs there.")
    public static let gtfsPointOutsideBBox = RuleDescription(
        "gtfs.point_outside_pack_bbox", .gtfs, .warning, "A stop lies outside the city bounding box",
        rationale: "The pack covers its box; stops outside are useless to users and hint at a wrong feed or box.")
    public static let gtfsStopWithoutLocation = RuleDescription(
        "gtfs.stop_without_location", .gtfs, .error, "A stop, station or entrance has no stop_lat/stop_lon",
        rationale: "GTFS requires coordinates for location_type 0–2; the stop cannot be placed on a map.")
    public static let gtfsMissingStopName = RuleDescription(
        "gtfs.missing_stop_name", .gtfs, .error, "A stop, station or entrance has no stop_name",
        rationale: "Riders identify stops by name; GTFS requires it for location_type 0–2.")
    public static let gtfsInvalidParentStation = RuleDescription(
        "gtfs.invalid_parent_station", .gtfs, .error, "parent_station points at a stop of the wrong location_type",
        rationale: "Stops and entrances belong to stations and boarding areas to platforms; other links break hierarchy.")
    public static let gtfsStopWithoutStopTime = RuleDescription(
        "gtfs.stop_without_stop_time", .gtfs, .warning, "A stop (location_type 0) is served by no trip",
        rationale: "Unused stops clutter the map with places no vehicle serves.")
    // Routes.
    public static let gtfsRouteNameMissing = RuleDescription(
        "gtfs.route_name_missing", .gtfs, .error, "A route has neither route_short_name nor route_long_name",
        rationale: "Riders cannot tell the route apart from others.")
    public static let gtfsDuplicateRouteName = RuleDescription(
        "gtfs.duplicate_route_name", .gtfs, .warning,
        "Two routes of the same agency and route_type have the same short and long names",
        rationale: "Riders and trip planners cannot tell them apart; usually one route was split or copied.")
    public static let gtfsRouteShortLongNameEqual = RuleDescription(
        "gtfs.route_short_long_name_equal", .gtfs, .warning, "route_short_name equals route_long_name",
        rationale: "Apps show both names side by side; the long name should describe the route, not repeat it.")
    public static let gtfsRouteShortNameTooLong = RuleDescription(
        "gtfs.route_short_name_too_long", .gtfs, .warning, "route_short_name has more than 12 characters",
        rationale: "Short names are shown in badges; long text belongs in route_long_name.")
    // Trips and stop times.
    public static let gtfsUnusableTrip = RuleDescription(
        "gtfs.unusable_trip", .gtfs, .warning, "A trip has fewer than two stop_times",
        rationale: "A trip must go from one stop to another to be usable for routing.")
    public static let gtfsUnusedTrip = RuleDescription(
        "gtfs.unused_trip", .gtfs, .warning, "A trip has no stop_times",
        rationale: "The trip is dead weight; usually stop_times were filtered without trips.")
    public static let gtfsArrivalBeforePreviousDeparture = RuleDescription(
        "gtfs.arrival_before_previous_departure", .gtfs, .error,
        "A stop_time arrives before the previous stop_time of the trip departs",
        rationale: "Time cannot go backwards; journey planners produce nonsense itineraries.")
    public static let gtfsOnlyArrivalOrDeparture = RuleDescription(
        "gtfs.only_arrival_or_departure", .gtfs, .error, "A stop_time has arrival_time or departure_time but not both",
        rationale: "GTFS requires both or neither; the missing one cannot be inferred safely.")
    public static let gtfsMissingTripEdge = RuleDescription(
        "gtfs.missing_trip_edge", .gtfs, .error, "The first or last stop_time of a trip has no times",
        rationale: "Trip start and end must be timed for the trip to be placed in the day.")
    public static let gtfsDuplicateStopSequence = RuleDescription(
        "gtfs.duplicate_stop_sequence", .gtfs, .error, "Two stop_times of one trip share a stop_sequence",
        rationale: "The order of the two stops is then undefined.")
    public static let gtfsDecreasingStopTimeDistance = RuleDescription(
        "gtfs.decreasing_stop_time_distance", .gtfs, .error,
        "shape_dist_traveled decreases along a trip's stop_times",
        rationale: "Distance travelled can only grow; shape projection breaks otherwise.")
    public static let gtfsFastTravel = RuleDescription(
        "gtfs.fast_travel", .gtfs, .warning, "Travel between consecutive stops is faster than the route type allows",
        rationale: "Usually wrong times or misplaced stops (caps: e.g. bus 150 km/h, tram 100 km/h, rail 500 km/h).")
    public static let gtfsBlockOverlap = RuleDescription(
        "gtfs.block_overlap", .gtfs, .error, "Two trips of one block and service overlap in time",
        rationale: "One vehicle cannot run two trips at once.")
    // Shapes.
    public static let gtfsDecreasingShapeDistance = RuleDescription(
        "gtfs.decreasing_shape_distance", .gtfs, .error, "shape_dist_traveled decreases along a shape",
        rationale: "Distance along a line can only grow.")
    public static let gtfsDuplicateShapeSequence = RuleDescription(
        "gtfs.duplicate_shape_sequence", .gtfs, .error, "Two points of one shape share a shape_pt_sequence",
        rationale: "The order of the points, and so the drawn line, is undefined.")
    public static let gtfsUnusedShape = RuleDescription(
        "gtfs.unused_shape", .gtfs, .warning, "A shape is referenced by no trip",
        rationale: "Dead weight in the pack; often a sign of a broken shape_id reference.")
    // Calendars.
    public static let gtfsCalendarRangeOutOfOrder = RuleDescription(
        "gtfs.calendar_range_out_of_order", .gtfs, .error, "A calendar's start_date is after its end_date",
        rationale: "The service would never run.")
    public static let gtfsServiceNoActiveDay = RuleDescription(
        "gtfs.service_no_active_day", .gtfs, .warning, "A calendar row has every weekday flag set to 0",
        rationale: "It runs only through calendar_dates additions, which is usually a mistake.")
    public static let gtfsExpiredCalendar = RuleDescription(
        "gtfs.expired_calendar", .gtfs, .warning, "A service ends before the build date",
        rationale: "Expired services show riders departures that no longer exist.")
    public static let gtfsFeedExpiresSoon = RuleDescription(
        "gtfs.feed_expires_soon", .gtfs, .warning, "The feed's last service date is within 7 days of the build date",
        rationale: "The pack will carry no timetable soon after it ships.")
    // Frequencies and transfers.
    public static let gtfsInvalidHeadway = RuleDescription(
        "gtfs.invalid_headway", .gtfs, .error, "A frequency has headway_secs ≤ 0 or end_time ≤ start_time",
        rationale: "Such a frequency generates no or infinitely many trips.")
    public static let gtfsOverlappingFrequency = RuleDescription(
        "gtfs.overlapping_frequency", .gtfs, .error, "Two frequencies of one trip overlap in time",
        rationale: "The vehicle count during the overlap is undefined.")

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
}
