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
        "fare_media": CSVSchema(known: ["fare_media_name"], required: ["fare_media_id", "fare_media_type"]),
        // Draft Fares v2 name of fare_media, still found in feeds.
        "fare_containers": CSVSchema(
            known: ["fare_media_id", "fare_media_name", "fare_media_type", "fare_container_id",
                "fare_container_name", "amount", "minimum_initial_purchase", "currency", "rider_category_id"],
            required: []),
        "fare_products": CSVSchema(
            known: ["fare_product_name", "rider_category_id", "fare_media_id", "transfer_only"],
            required: ["fare_product_id", "amount", "currency"]),
        "fare_leg_rules": CSVSchema(
            known: ["leg_group_id", "network_id", "from_area_id", "to_area_id", "from_timeframe_group_id",
                "to_timeframe_group_id", "rule_priority"],
            required: ["fare_product_id"]),
        "fare_transfer_rules": CSVSchema(
            known: ["from_leg_group_id", "to_leg_group_id", "transfer_count", "duration_limit",
                "duration_limit_type", "fare_product_id", "filter_fare_product_id"],
            required: ["fare_transfer_type"]),
        "rider_categories": CSVSchema(
            known: ["min_age", "max_age", "eligibility_url", "is_default_fare_category"],
            required: ["rider_category_id", "rider_category_name"]),
        "areas": CSVSchema(known: ["area_name"], required: ["area_id"]),
        "stop_areas": CSVSchema(known: [], required: ["area_id", "stop_id"]),
        "networks": CSVSchema(known: ["network_name"], required: ["network_id"]),
        "route_networks": CSVSchema(known: [], required: ["network_id", "route_id"]),
        "timeframes": CSVSchema(known: ["start_time", "end_time"], required: ["timeframe_group_id", "service_id"]),
    ]

    private static let otherKnownFiles: Set<String> = [
        "fare_leg_join_rules.txt", "location_groups.txt", "location_group_stops.txt", "locations.geojson",
        "booking_rules.txt",
    ]

    static func isKnownFile(_ name: String) -> Bool {
        if otherKnownFiles.contains(name) { return true }
        guard name.hasSuffix(".txt") else { return name.hasPrefix(".") || name.hasSuffix(".md") }
        return tables[String(name.dropLast(4))] != nil
    }
}
