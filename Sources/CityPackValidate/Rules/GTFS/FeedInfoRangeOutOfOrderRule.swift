import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let gtfsFeedInfoRangeOutOfOrder = RuleDescription(
        "gtfs.feed_info_range_out_of_order", .gtfs, .error, "feed_info's feed_start_date is after its feed_end_date",
        title: "Feed info dates out of order",
        rationale: "The feed would be valid on no day; CityPack dates the feed's end by feed_end_date "
            + "(gtfs.feed_expires_soon), so one of the two dates is wrong. gtfs-validator reports it as an error "
            + "(start_and_end_range_out_of_order in feed_info.txt).",
        example: RuleExample(
            file: "gtfs/feed_info.txt",
            triggering: FeedInfoRangeOutOfOrderRule.example("20351231", "20260101"),
            passing: FeedInfoRangeOutOfOrderRule.example("20260101", "20351231")))
}

/// feed_info.txt's feed_start_date must not be after its feed_end_date (gtfs-validator:
/// `start_and_end_range_out_of_order` on feed_info.txt). Equal dates are a feed valid for one day.
enum FeedInfoRangeOutOfOrderRule {
    /// A feed_info.txt for the example city with the given dates.
    static func example(_ start: String, _ end: String) -> String {
        "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\n"
            + "Example Transit,https://transit.example,en,\(start),\(end)\n"
    }

    static func check(_ c: GTFSValidationContext) {
        guard let info = c.feed.feedInfo, let start = info.startDate, let end = info.endDate, start > end else {
            return
        }
        c.report(Rules.gtfsFeedInfoRangeOutOfOrder, .outOfOrder(start, end), "feed_info", info.line,
            field: "feed_start_date", entity: "feed_publisher_name=\(info.publisherName)")
    }
}

extension String {
    fileprivate static func outOfOrder(_ start: Int32, _ end: Int32) -> String {
        "feed_start_date \(GTFSDate.text(start)) is after feed_end_date \(GTFSDate.text(end))"
    }
}
