/// How CityPack stands to every notice of gtfs-validator (MobilityData's reference GTFS validator), as data: the
/// CityPack rule codes that cover a notice, or why it does not apply to an offline pack, or that it is not yet
/// covered and what a rule would need. `citypack rules --format json` (`gtfs_validator_parity`) and docs/RULES.md
/// render it; `scripts/gtfs-parity.py` uses it to set both tools' findings on a feed side by side, and
/// `GTFSValidatorParityTests` keeps it complete against gtfs-guru's `notice_schema()`.
///
/// What a pack carries from a feed: stops (name, position, location_type, parent), routes (agency, names, type,
/// colours), services (calendar, calendar_dates), trips (route, service, headsign, direction), the departures of
/// stop_times and frequencies. A notice about other data "does not apply" when the pack carries nothing of it and
/// no rule reads it beyond checking its syntax, keys, references or value types (each reason says what CityPack
/// does with it). A notice about carried data, or about data a rule already reads (shapes, feed_info dates,
/// agency timezones, timepoint), that no rule checks is "not yet covered", never "does not apply".
package enum GTFSValidatorParity {
    /// Where the notice list comes from.
    package static let source = "gtfs_guru.notice_schema() of gtfs-guru 1.0.0, a Rust port of gtfs-validator"

    /// A notice's severity in gtfs-validator.
    package enum Severity: String, Sendable, CaseIterable {
        case error = "ERROR", warning = "WARNING", info = "INFO"
    }

    /// How CityPack stands to a notice.
    package enum Status: String, Sendable, CaseIterable {
        /// CityPack rules report the same problem (``Notice/note`` says where they differ, on purpose).
        case covered
        /// CityPack rules report part of it; ``Notice/note`` says which part is not yet reported.
        case partlyCovered = "partly_covered"
        /// The notice is about data the pack does not carry; ``Notice/note`` says why and what CityPack does with it.
        case notApplicable = "not_applicable"
        /// CityPack reads the data and no rule checks it yet; ``Notice/note`` says what a rule would need.
        case notYetCovered = "not_yet_covered"
    }

    /// One gtfs-validator notice and CityPack's answer to it.
    package struct Notice: Sendable, Hashable {
        /// The notice code, e.g. `duplicate_key`.
        package let code: String
        /// Its severity in gtfs-validator.
        package let severity: Severity
        /// Whether gtfs-validator marks it deprecated.
        package let deprecated: Bool
        package let status: Status
        /// The CityPack rule codes that report it (empty when not applicable or not yet covered).
        package let citypack: [String]
        /// Where CityPack differs (covered), what is missing (partly covered), why it does not apply, or what a
        /// rule would need (not yet covered); empty when there is nothing to add.
        package let note: String
        /// A CityPack rule code being added for it, while the notice is still not yet covered.
        package let planned: String?
    }

    /// The notices of one severity, in code order.
    package static func notices(_ severity: Severity) -> [Notice] {
        all.filter { $0.severity == severity }.sorted { $0.code < $1.code }
    }

    /// Every notice, by code.
    package static let byCode: [String: Notice] = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })

    // MARK: constructors

    private static func covered(_ code: String, _ severity: Severity, _ citypack: [String], _ note: String = "",
        deprecated: Bool = false) -> Notice
    {
        Notice(code: code, severity: severity, deprecated: deprecated, status: .covered, citypack: citypack, note: note,
            planned: nil)
    }

    private static func partly(_ code: String, _ severity: Severity, _ citypack: [String], missing: String) -> Notice {
        Notice(code: code, severity: severity, deprecated: false, status: .partlyCovered, citypack: citypack,
            note: missing, planned: nil)
    }

    private static func notApplicable(_ code: String, _ severity: Severity, _ reason: String,
        deprecated: Bool = false) -> Notice
    {
        Notice(code: code, severity: severity, deprecated: deprecated, status: .notApplicable, citypack: [],
            note: reason, planned: nil)
    }

    private static func notYet(_ code: String, _ severity: Severity, needs: String, planned: String? = nil,
        deprecated: Bool = false) -> Notice
    {
        Notice(code: code, severity: severity, deprecated: deprecated, status: .notYetCovered, citypack: [],
            note: needs, planned: planned)
    }

    // MARK: shared reasons

    private static let fares =
        "fares (fare_attributes, fare_rules, and Fares v2: fare_media, fare_products, fare_leg_rules, "
        + "fare_transfer_rules, rider_categories, areas, networks, timeframes) are not carried in the pack; CityPack "
        + "checks those files' CSV syntax, required columns, keys and references only"
    private static let flexWindows =
        "GTFS-Flex: the pack carries timed departures at stops only; CityPack does not read pickup/drop-off windows, "
        + "and stop_times rows with a location_group_id or location_id instead of a stop_id are left out of the pack"
    private static let booking =
        "GTFS-Flex booking rules are not carried: booking_rules.txt is a known file that CityPack does not read"
    private static let geoJSON =
        "GTFS-Flex zones are not carried: locations.geojson is a known file that CityPack does not read"
    private static let pathways =
        "pathways and levels are not carried (the pack has no in-station routing); CityPack checks pathways.txt and "
        + "levels.txt for CSV syntax, required columns, keys and stop references only"
    private static let stopAccess =
        "stop_access belongs to pathways, which the pack does not carry; CityPack does not read the column"
    private static let transfers =
        "transfers are not carried (the pack answers departures, not itineraries); CityPack reads transfers.txt only "
        + "to check its values and its references to stops, routes and trips"
    private static let translations =
        "translations.txt is not carried (a pack's languages come from OSM names and the city's copy files); CityPack "
        + "checks its CSV syntax and required columns only"
    private static let attributions =
        "attributions.txt is not carried (the pack's attribution is city.yaml's); CityPack checks its syntax, keys and "
        + "references only"
    private static let internalFailure =
        "a failure inside gtfs-validator itself; CityPack's counterpart is exit code 70 (internal error), not a "
        + "finding about the feed"
    private static let google = "an optional Google Transit rule (gtfs-validator --google-rules), not part of GTFS; "
    private static let urlFields =
        "for the URL fields CityPack reads (agency_url, stop_url, route_url, feed_publisher_url); the others "
        + "(agency_fare_url, feed_contact_url, attribution and booking URLs) are not carried and not read"
    private static let contactFields =
        "contact fields (agency_phone, agency_email, feed_contact_email, attribution contacts) are not carried; "
        + "CityPack does not read them"

    // MARK: the mapping

    /// Every gtfs-validator notice (191: 111 ERROR, 63 WARNING, 17 INFO), grouped by severity.
    package static let all: [Notice] = errors + warnings + infos

    private static let errors: [Notice] = [
        notApplicable("bidirectional_exit_gate", .error, pathways),
        covered("block_trips_with_overlapping_stop_times", .error, ["gtfs.block_overlap"]),
        covered("csv_parsing_failed", .error,
            ["csv.unterminated_quote", "csv.stray_quote", "csv.field_too_long", "csv.too_many_fields"],
            "CityPack names the cause; a long value is an error only above the configured limit (64 KiB by default)"),
        covered("decreasing_or_equal_stop_time_distance", .error,
            ["gtfs.decreasing_stop_time_distance", "gtfs.equal_stop_time_distance"],
            "CityPack compares each distance with the previous stop_time that has one; gtfs-validator compares "
                + "adjacent rows only, so a row without a distance in between hides the fault from it"),
        covered("decreasing_shape_distance", .error, ["gtfs.decreasing_shape_distance"]),
        notApplicable("duplicate_geo_json_key", .error, geoJSON),
        notApplicable("duplicate_geography_id", .error, geoJSON + "; location_groups.txt is not read either"),
        covered("duplicate_key", .error, ["gtfs.duplicate_key", "gtfs.duplicate_stop_sequence", "gtfs.duplicate_shape_sequence"],
            "a repeated (trip_id, stop_sequence) or (shape_id, shape_pt_sequence) has a rule of its own"),
        covered("duplicated_column", .error, ["csv.duplicated_column"]),
        covered("empty_column_name", .error, ["csv.empty_column_name"]),
        partly("empty_file", .error, ["csv.empty_file", "gtfs.empty_timetable"],
            missing: "a required file other than stop_times.txt with a header and no rows is reported only through "
                + "what it breaks (gtfs.foreign_key_violation, gtfs.no_service_dates)"),
        covered("equal_shape_distance_diff_coordinates", .error, ["gtfs.equal_shape_distance_diff_coordinates"],
            "a warning in CityPack, on purpose: the pack carries no shapes or distances, so the fault cannot mislead an "
                + "app reading it"),
        notApplicable("fare_product_with_multiple_default_rider_categories", .error, fares),
        notApplicable("fare_transfer_rule_duration_limit_type_without_duration_limit", .error, fares),
        notApplicable("fare_transfer_rule_duration_limit_without_type", .error, fares),
        notApplicable("fare_transfer_rule_invalid_transfer_count", .error, fares),
        notApplicable("fare_transfer_rule_with_forbidden_transfer_count", .error, fares),
        notApplicable("fare_transfer_rule_without_transfer_count", .error, fares),
        notApplicable("forbidden_arrival_or_departure_time", .error, flexWindows),
        notApplicable("forbidden_continuous_pickup_drop_off", .error, flexWindows),
        notApplicable("forbidden_drop_off_type", .error, flexWindows),
        notApplicable("forbidden_geography_id", .error, flexWindows),
        notApplicable("forbidden_pickup_type", .error, flexWindows),
        notApplicable("forbidden_prior_day_booking_field_value", .error, booking),
        notApplicable("forbidden_prior_notice_start_day", .error, booking),
        notApplicable("forbidden_prior_notice_start_time", .error, booking),
        notApplicable("forbidden_real_time_booking_field_value", .error, booking),
        notApplicable("forbidden_same_day_booking_field_value", .error, booking),
        notApplicable("forbidden_shape_dist_traveled", .error, flexWindows),
        covered("foreign_key_violation", .error, ["gtfs.foreign_key_violation", "gtfs.dangling_parent_station"],
            "references into a table that is absent or lost rows to reading errors are not judged (pack.rules_not_run "
                + "says so); a dangling parent_station is gtfs.dangling_parent_station, a warning by default (the "
                + "stop is kept without its station; --werror or the rule setting make it an error)"),
        notApplicable("geo_json_duplicated_element", .error, geoJSON),
        notApplicable("google_ic_price_check", .error, google + fares),
        covered("i_o_error", .error, ["pack.io_failure", "gtfs.invalid_archive"]),
        covered("inconsistent_agency_timezone", .error, ["gtfs.inconsistent_agency_timezone"],
            "an empty or invalid agency_timezone is csv.missing_value or csv.invalid_value and not compared (the first "
                + "valid one sets the expected zone); gtfs-validator compares the raw text"),
        covered("invalid_character", .error, ["csv.invalid_utf8"],
            "CityPack reports the bytes that are not UTF-8 (gtfs-validator sees them as U+FFFD); a U+FFFD already "
                + "encoded in the file is not reported"),
        covered("invalid_color", .error, ["csv.invalid_value"]),
        notApplicable("invalid_currency", .error, fares),
        notApplicable("invalid_currency_amount", .error, fares),
        covered("invalid_date", .error, ["csv.invalid_value"]),
        notApplicable("invalid_email", .error, contactFields),
        covered("invalid_float", .error, ["csv.invalid_value"]),
        notApplicable("invalid_geometry", .error, geoJSON),
        covered("invalid_input_files_in_subfolder", .error, ["gtfs.invalid_input_files_in_subfolder"],
            "on purpose, a feed whose files all sit in one folder of the archive is read from there "
                + "(gtfs.files_in_subfolder, info); only files split across folders are an error"),
        covered("invalid_integer", .error, ["csv.invalid_value"]),
        notApplicable("invalid_language_code", .error,
            "GTFS languages (agency_lang, feed_lang, translations) are not carried: a pack's locales come from city.yaml "
                + "(city.invalid_locale); CityPack only requires feed_lang to be present"),
        notApplicable("invalid_phone_number", .error, contactFields),
        notApplicable("invalid_pickup_drop_off_window", .error, flexWindows),
        notApplicable("invalid_prior_notice_duration_min", .error, booking),
        covered("invalid_row_length", .error, ["csv.invalid_row_length", "csv.trailing_cells"],
            "in tables the pack does not use, missing or empty extra trailing cells are csv.trailing_cells (warning)"),
        covered("invalid_time", .error, ["csv.invalid_value"]),
        covered("invalid_timezone", .error, ["csv.invalid_value"]),
        covered("invalid_url", .error, ["csv.invalid_value"], urlFields),
        covered("location_with_unexpected_stop_time", .error, ["gtfs.location_with_unexpected_stop_time"]),
        covered("location_without_parent_station", .error, ["gtfs.invalid_parent_station"]),
        notApplicable("malformed_json", .error, geoJSON),
        covered("missing_calendar_and_calendar_date_files", .error, ["gtfs.missing_calendar"]),
        notApplicable("missing_level_id", .error, pathways + "; stops.level_id is not read"),
        notApplicable("missing_pickup_or_drop_off_window", .error, flexWindows),
        notApplicable("missing_prior_day_booking_field_value", .error, booking, deprecated: true),
        notApplicable("missing_prior_notice_duration_min", .error, booking),
        notApplicable("missing_prior_notice_last_day", .error, booking),
        notApplicable("missing_prior_notice_last_time", .error, booking),
        notApplicable("missing_prior_notice_start_time", .error, booking),
        covered("missing_required_agency_id", .error, ["gtfs.missing_agency_id"]),
        covered("missing_required_column", .error, ["csv.missing_required_column"],
            "a file in UTF-16 is not read (csv.utf16_encoding), so its columns are not judged"),
        notApplicable("missing_required_element", .error, geoJSON),
        covered("missing_required_field", .error, ["csv.missing_required_field"],
            "checked in the tables the pack uses; in the tables kept only for their keys and references, required "
                + "columns are checked, not empty cells"),
        covered("missing_required_file", .error, ["gtfs.missing_required_file"]),
        covered("missing_stop_name", .error, ["gtfs.missing_stop_name"]),
        notApplicable("missing_stop_times_record", .error, flexWindows),
        covered("missing_trip_edge", .error, ["gtfs.missing_trip_edge"], "once per untimed edge, not once per field"),
        covered("new_line_in_value", .error, ["csv.new_line_in_value"]),
        covered("number_out_of_range", .error, ["csv.invalid_value", "gtfs.coordinate_out_of_range"],
            "for the columns CityPack reads (enumerations and ranges of unread columns, e.g. in pathways.txt, are not "
                + "checked); a point out of range is reported once, not once per coordinate"),
        covered("overlapping_frequency", .error, ["gtfs.overlapping_frequency"]),
        notApplicable("overlapping_zone_and_pickup_drop_off_window", .error, flexWindows),
        notApplicable("pathway_to_platform_with_boarding_areas", .error, pathways),
        notApplicable("pathway_to_stop_with_access_outside_of_station_pathways", .error, pathways),
        notApplicable("pathway_to_wrong_location_type", .error, pathways),
        notApplicable("pathway_unreachable_location", .error, pathways),
        covered("point_near_origin", .error, ["gtfs.point_near_origin"]),
        covered("point_near_pole", .error, ["gtfs.point_near_pole"]),
        notApplicable("prior_notice_last_day_after_start_day", .error, booking),
        covered("route_both_short_and_long_name_missing", .error, ["gtfs.route_name_missing"]),
        notApplicable("route_networks_specified_in_more_than_one_file", .error,
            fares + "; routes.network_id is read only to resolve fare_leg_rules references"),
        notApplicable("runtime_exception_in_loader_error", .error, internalFailure),
        notApplicable("runtime_exception_in_validator_error", .error, internalFailure),
        covered("start_and_end_range_equal", .error, ["gtfs.invalid_headway"]),
        covered("start_and_end_range_out_of_order", .error,
            ["gtfs.calendar_range_out_of_order", "gtfs.feed_info_range_out_of_order", "gtfs.departure_before_arrival",
                "gtfs.invalid_headway"],
            "one code per file: calendar.txt, feed_info.txt, stop_times.txt, frequencies.txt"),
        covered("station_with_parent_station", .error, ["gtfs.invalid_parent_station"]),
        notApplicable("stop_access_specified_for_incorrect_location", .error, stopAccess),
        notApplicable("stop_access_specified_for_stop_with_no_parent_station", .error, stopAccess),
        covered("stop_time_timepoint_without_times", .error, ["gtfs.timepoint_without_times"]),
        covered("stop_time_with_arrival_before_previous_departure_time", .error,
            ["gtfs.arrival_before_previous_departure"]),
        covered("stop_time_with_only_arrival_or_departure_time", .error, ["gtfs.only_arrival_or_departure"]),
        covered("stop_without_location", .error, ["gtfs.stop_without_location"]),
        notApplicable("thread_execution_error", .error, internalFailure),
        notApplicable("timeframe_only_start_or_end_time_specified", .error, fares),
        notApplicable("timeframe_overlap", .error, fares),
        notApplicable("timeframe_start_or_end_time_greater_than_twenty_four_hours", .error, fares),
        covered("too_many_rows", .error, ["csv.too_many_rows"],
            "the limit is the city's (limits: in city.yaml; 50 million rows by default)"),
        notApplicable("transfer_with_invalid_stop_location_type", .error, transfers),
        notApplicable("transfer_with_invalid_trip_and_route", .error, transfers),
        notApplicable("transfer_with_invalid_trip_and_stop", .error, transfers),
        notApplicable("translation_foreign_key_violation", .error, translations),
        notApplicable("translation_unexpected_value", .error, translations),
        covered("trip_distance_exceeds_shape_distance", .error, ["gtfs.trip_distance_exceeds_shape_distance"],
            "a warning by default: the pack carries no shapes, so the distances do not change any answer; --werror "
                + "or the rule setting make it an error"),
        covered("u_r_i_syntax_error", .error, ["csv.invalid_value"], urlFields),
        notApplicable("unsupported_feature_type", .error, geoJSON),
        notApplicable("unsupported_geo_json_type", .error, geoJSON),
        notApplicable("unsupported_geometry_type", .error, geoJSON),
        covered("wrong_parent_location_type", .error, ["gtfs.invalid_parent_station"]),
    ]

    private static let warnings: [Notice] = [
        notApplicable("agency_phone_invalid", .warning, google + contactFields),
        notApplicable("attribution_without_role", .warning, attributions),
        notApplicable("duplicate_fare_media", .warning, fares),
        covered("duplicate_route_name", .warning, ["gtfs.duplicate_route_name"],
            "CityPack compares the short and long names together (same agency and route_type, ignoring case)"),
        notYet("duplicate_trip", .warning,
            needs: "a rule would report trips with the same route, service and stop_times (stops and times), "
                + "which the pack would list twice as departures"),
        covered("empty_row", .warning, ["csv.empty_row"]),
        covered("equal_shape_distance_diff_coordinates_distance_below_threshold", .warning,
            ["gtfs.equal_shape_distance_diff_coordinates"], "one rule for any distance between the two points"),
        notYet("equal_shape_distance_same_coordinates", .warning,
            needs: "a rule would report consecutive shape points with equal shape_dist_traveled at the same coordinates"),
        covered("expired_calendar", .warning, ["gtfs.expired_calendar"],
            "counted as gtfs-validator counts it: per ended service with a calendar.txt row; in a feed dated by "
                + "calendar_dates.txt alone, per service once every service has ended"),
        covered("fast_travel_between_consecutive_stops", .warning, ["gtfs.fast_travel"],
            "counted as gtfs-validator counts it: every leg between two timed consecutive stop_times, its time the "
                + "difference (a minute when not positive, a minute more when both times are whole minutes); caps per "
                + "route_type, extended types by their family where gtfs-validator uses 200 km/h"),
        partly("fast_travel_between_far_stops", .warning, ["gtfs.fast_travel"],
            missing: "gtfs.fast_travel checks legs between consecutive timed stops (untimed ones skipped); speeds over "
                + "longer stretches of several timed stops are not checked"),
        partly("feed_expiration_date30_days", .warning, ["gtfs.feed_expires_soon"],
            missing: "gtfs.feed_expires_soon fires within 7 days of the end; the 30-day warning has no counterpart"),
        covered("feed_expiration_date7_days", .warning, ["gtfs.feed_expires_soon"],
            "without feed_end_date, CityPack uses the last service day; an end already past is not this rule's but "
                + "gtfs.expired_calendar's (gtfs-validator reports both)"),
        notApplicable("feed_info_lang_and_agency_lang_mismatch", .warning,
            "GTFS languages are not carried (a pack's locales come from city.yaml); CityPack does not read agency_lang"),
        notApplicable("google_transfer_type_check", .warning, google + transfers),
        notYet("headway_too_large", .warning, needs: "a rule would report frequencies with headway_secs over 3600"),
        notApplicable("inconsistent_agency_lang", .warning,
            "GTFS languages are not carried (a pack's locales come from city.yaml); CityPack does not read agency_lang"),
        notYet("inconsistent_route_type_for_block_id", .warning,
            needs: "block_id is read (gtfs.block_overlap); a rule would report blocks whose trips' routes differ in "
                + "route_type"),
        notApplicable("inconsistent_route_type_for_in_seat_transfer", .warning, transfers),
        covered("leading_or_trailing_whitespaces", .warning, ["csv.leading_or_trailing_whitespace"]),
        notApplicable("missing_bike_allowance", .warning,
            "bikes_allowed is not carried; CityPack checks its values (0–2) only"),
        notApplicable("missing_feed_contact_email_and_url", .warning, contactFields),
        notApplicable("missing_feed_info_date", .warning,
            "CityPack uses feed_end_date alone (gtfs.feed_expires_soon) and needs no feed_start_date"),
        notApplicable("missing_pickup_drop_off_booking_rule_id", .warning, booking),
        notApplicable("missing_recommended_column", .warning,
            "deprecated in gtfs-validator (replaced by missing_recommended_field)", deprecated: true),
        notYet("missing_recommended_field", .warning,
            needs: "a rule with gtfs-validator's list of recommended fields per table, warning when one is empty"),
        notApplicable("missing_recommended_file", .warning,
            "a pack needs no recommended file: without feed_info.txt CityPack dates the feed by its services"),
        notYet("missing_timepoint_value", .warning,
            needs: "timepoint is read (gtfs.timepoint_without_times) but not carried; a rule would warn about timed "
                + "stop_times with an empty timepoint"),
        notYet("mixed_case_recommended_field", .warning,
            needs: "names are carried and shown; a rule would report stop_name, route_long_name or trip_headsign "
                + "values in one case only (all capitals or all lower case)"),
        notYet("more_than_one_entity", .warning,
            needs: "CityPack keeps feed_info.txt's first row silently; a rule would report the other rows"),
        covered("non_ascii_or_non_printable_char", .warning, ["csv.non_printable_in_id"]),
        notApplicable("pathway_dangling_generic_node", .warning, pathways),
        notApplicable("pathway_loop", .warning, pathways),
        notYet("route_color_contrast", .warning,
            needs: "colours are carried; a rule would report route_color and route_text_color whose contrast is too "
                + "low to read"),
        partly("route_long_name_contains_short_name", .warning, ["gtfs.route_short_long_name_equal"],
            missing: "only equal names are reported; a long name that merely contains the short name is not"),
        covered("route_short_name_too_long", .warning, ["gtfs.route_short_name_too_long"]),
        notApplicable("same_name_and_description_for_route", .warning, "route_desc is not carried and not read"),
        notApplicable("same_name_and_description_for_stop", .warning, "stop_desc is not carried and not read"),
        notApplicable("same_route_and_agency_url", .warning, "URLs are not carried; CityPack checks their syntax only"),
        notApplicable("same_stop_and_agency_url", .warning, "URLs are not carried; CityPack checks their syntax only"),
        notApplicable("same_stop_and_route_url", .warning, "URLs are not carried; CityPack checks their syntax only"),
        covered("service_has_no_active_day_of_the_week", .warning, ["gtfs.service_no_active_day"]),
        partly("service_never_active", .warning, ["gtfs.no_service_dates"],
            missing: "gtfs.no_service_dates fires when no service of the feed runs; one service that never runs while "
                + "others do is not reported (gtfs.service_no_active_day and gtfs.calendar_range_out_of_order report "
                + "some causes, whether or not calendar_dates.txt adds days)"),
        notYet("single_shape_point", .warning, needs: "a rule would report shapes with a single point"),
        notYet("stop_has_too_many_matches_for_shape", .warning,
            needs: "matching stops to their trip's shape (as for stop_too_far_from_shape), reporting stops that match "
                + "several places along it"),
        notApplicable("stop_headsign_invalid_char", .warning, "stop_headsign is not carried and not read"),
        covered("stop_too_far_from_shape", .warning, ["gtfs.stop_too_far_from_shape"]),
        notYet("stop_too_far_from_shape_using_user_distance", .warning,
            needs: "a rule placing each stop_time at its shape_dist_traveled along the shape and reporting stops far "
                + "from that point"),
        covered("stop_without_stop_time", .warning, ["gtfs.stop_without_stop_time"]),
        notYet("stops_match_shape_out_of_order", .warning,
            needs: "matching stops to their trip's shape and reporting stops met in another order than stop_sequence"),
        notYet("too_many_days_without_service", .warning,
            needs: "a rule over the feed's active dates reporting gaps of 14 days or more without any service"),
        notApplicable("transfer_distance_too_large", .warning, transfers),
        notApplicable("transfer_with_suspicious_mid_trip_in_seat", .warning, transfers),
        notApplicable("translation_unknown_table_name", .warning, translations),
        partly("trip_coverage_not_active_for_next7_days", .warning, ["gtfs.feed_expires_soon"],
            missing: "gtfs.feed_expires_soon reports a feed ending within 7 days; one that has ended (gtfs.expired_calendar "
                + "reports its services), has not started, or has days without trips in the next 7 days is not"),
        covered("trip_distance_exceeds_shape_distance_below_threshold", .warning,
            ["gtfs.trip_distance_exceeds_shape_distance_below_threshold"]),
        covered("unexpected_enum_value", .warning, ["csv.invalid_value"],
            "an error in CityPack: a value outside the enumeration cannot be carried"),
        covered("unusable_trip", .warning, ["gtfs.unusable_trip"]),
        notYet("unused_agency", .warning, needs: "a rule would report agencies that no route names"),
        notYet("unused_route", .warning,
            needs: "a rule would report routes that no trip names (the pack lists them as lines without departures)"),
        covered("unused_shape", .warning, ["gtfs.unused_shape"]),
        covered("unused_stop", .warning, ["gtfs.stop_without_stop_time"]),
        covered("unused_trip", .warning, ["gtfs.unused_trip"]),
    ]

    private static let infos: [Notice] = [
        notYet("big_gap_in_service", .info,
            needs: "a rule over each service's active dates reporting gaps of more than 13 days"),
        notYet("feed_valid_beyond_total_service_window", .info,
            needs: "a rule comparing feed_info's feed_end_date with the last service day"),
        notYet("future_calendar", .info,
            needs: "a rule reporting a feed whose services all start after the build date"),
        notYet("future_feed", .info, needs: "a rule reporting feed_start_date after the build date"),
        notApplicable("geo_json_unknown_element", .info, geoJSON),
        notYet("platform_without_parent_station", .info,
            needs: "CityPack does not read platform_code; a rule would report platforms (stops with a platform_code) "
                + "without parent_station"),
        notYet("service_extends_far_in_the_future", .info,
            needs: "a rule reporting services that end more than two years after the build date"),
        notYet("service_window_outside_feed_period", .info,
            needs: "a rule comparing each service's dates with feed_info's feed_start_date and feed_end_date"),
        notApplicable("stop_without_zone_id", .info, fares + "; zone_id is read only to resolve fare_rules references"),
        notApplicable("transfer_distance_above_2_km", .info, transfers),
        notYet("trip_headsign_matches_intermediate_stop", .info,
            needs: "headsigns are carried; a rule would report a trip_headsign equal to an intermediate stop's name"),
        notYet("trip_with_shape_dist_traveled_but_no_shape_distances", .info,
            needs: "a rule reporting trips with stop_times distances whose shape has points without one"),
        covered("unknown_column", .info, ["csv.unknown_column", "csv.misspelled_column"],
            "a name one edit away from a missing column is csv.misspelled_column (warning)"),
        covered("unknown_file", .info, ["gtfs.unknown_file", "gtfs.misspelled_file"],
            "a name one edit away from a missing file is gtfs.misspelled_file (warning)"),
        notApplicable("unsorted_stop_times", .info,
            "row order has no meaning in GTFS; CityPack sorts each trip's stop_times by stop_sequence as it reads them"),
        notApplicable("unused_parent_station", .info, "deprecated in gtfs-validator (replaced by unused_station)",
            deprecated: true),
        notYet("unused_station", .info, needs: "a rule would report stations that no stop names as parent_station"),
    ]
}
