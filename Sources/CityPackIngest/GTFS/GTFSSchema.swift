/// Column schemas of the GTFS tables (google/transit `reference.md`), used for unknown/required column checks.
enum GTFSSchema {
    /// Tables parsed into the model, in dependency order (stop_times needs trips and stops).
    static let readOrder = [
        "agency", "stops", "routes", "trips", "calendar", "calendar_dates", "shapes", "stop_times", "frequencies",
        "transfers", "feed_info",
    ]

    static let tables: [String: CSVSchema] = [
        "agency": CSVSchema(
            known: ["agency_id", "agency_lang", "agency_phone", "agency_fare_url", "agency_email", "cemv_support"],
            required: ["agency_name", "agency_url", "agency_timezone"]),
        "stops": CSVSchema(
            known: ["stop_code", "stop_name", "tts_stop_name", "stop_desc", "stop_lat", "stop_lon", "zone_id",
                "stop_url", "location_type", "parent_station", "stop_timezone", "wheelchair_boarding", "level_id",
                "platform_code", "stop_access"],
            required: ["stop_id"]),
        "routes": CSVSchema(
            known: ["agency_id", "route_short_name", "route_long_name", "route_desc", "route_url", "route_color",
                "route_text_color", "route_sort_order", "continuous_pickup", "continuous_drop_off", "network_id",
                "cemv_support"],
            required: ["route_id", "route_type"]),
        "trips": CSVSchema(
            known: ["trip_headsign", "trip_short_name", "direction_id", "block_id", "shape_id",
                "wheelchair_accessible", "bikes_allowed", "cars_allowed"],
            required: ["route_id", "service_id", "trip_id"]),
        "stop_times": CSVSchema(
            known: ["arrival_time", "departure_time", "stop_id", "location_group_id", "location_id", "stop_headsign",
                "start_pickup_drop_off_window", "end_pickup_drop_off_window", "pickup_type", "drop_off_type",
                "continuous_pickup", "continuous_drop_off", "shape_dist_traveled", "timepoint",
                "pickup_booking_rule_id", "drop_off_booking_rule_id"],
            required: ["trip_id", "stop_sequence"]),
        "calendar": CSVSchema(
            known: [],
            required: ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                "start_date", "end_date"]),
        "calendar_dates": CSVSchema(known: [], required: ["service_id", "date", "exception_type"]),
        "shapes": CSVSchema(
            known: ["shape_dist_traveled"],
            required: ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"]),
        "frequencies": CSVSchema(known: ["exact_times"], required: ["trip_id", "start_time", "end_time", "headway_secs"]),
        "transfers": CSVSchema(
            known: ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id",
                "min_transfer_time"],
            required: ["transfer_type"]),
        "feed_info": CSVSchema(
            known: ["default_lang", "feed_start_date", "feed_end_date", "feed_version", "feed_contact_email",
                "feed_contact_url"],
            required: ["feed_publisher_name", "feed_publisher_url", "feed_lang"]),
        // Read for syntax only.
        "levels": CSVSchema(known: ["level_name"], required: ["level_id", "level_index"]),
        "pathways": CSVSchema(
            known: ["length", "traversal_time", "stair_count", "max_slope", "min_width", "signposted_as",
                "reversed_signposted_as"],
            required: ["pathway_id", "from_stop_id", "to_stop_id", "pathway_mode", "is_bidirectional"]),
        "translations": CSVSchema(
            known: ["record_id", "record_sub_id", "field_value"],
            required: ["table_name", "field_name", "language", "translation"]),
        "attributions": CSVSchema(
            known: ["attribution_id", "agency_id", "route_id", "trip_id", "is_producer", "is_operator",
                "is_authority", "attribution_url", "attribution_email", "attribution_phone"],
            required: ["organization_name"]),
        "fare_attributes": CSVSchema(
            known: ["agency_id", "transfer_duration"],
            required: ["fare_id", "price", "currency_type", "payment_method", "transfers"]),
        "fare_rules": CSVSchema(known: ["route_id", "origin_id", "destination_id", "contains_id"], required: ["fare_id"]),
    ]

    private static let otherKnownFiles: Set<String> = [
        "fare_media.txt", "fare_products.txt", "fare_leg_rules.txt", "fare_leg_join_rules.txt",
        "fare_transfer_rules.txt", "areas.txt", "stop_areas.txt", "networks.txt", "route_networks.txt",
        "timeframes.txt", "rider_categories.txt", "location_groups.txt", "location_group_stops.txt",
        "locations.geojson", "booking_rules.txt", "fare_containers.txt",
    ]

    static func isKnownFile(_ name: String) -> Bool {
        if otherKnownFiles.contains(name) { return true }
        guard name.hasSuffix(".txt") else { return name.hasPrefix(".") || name.hasSuffix(".md") }
        return tables[String(name.dropLast(4))] != nil
    }
}
