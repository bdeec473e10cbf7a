import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsBlockOverlap = RuleDescription(
        "gtfs.block_overlap", .gtfs, .error, "Two trips of one block and service overlap in time",
        title: "Overlapping trips in a block",
        rationale: "One vehicle cannot run two trips at once.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T2,09:00:00,09:00:00,S3", "T2,08:08:00,08:08:00,S3"),
            passing: Base.stopTimes))
}

/// Trips of one block and service must not overlap in time (first departure to last arrival): one vehicle
/// cannot run two trips at once. Approximation: trips with different service_ids are never compared, even if
/// their dates intersect.
enum BlockOverlapRule {
    static func check(_ c: GTFSValidationContext) {
        let feed = c.feed
        let st = feed.stopTimes
        var groups: [String: [(start: Int32, end: Int32, trip: Int)]] = [:]
        for (i, t) in feed.trips.enumerated() {
            guard let block = t.blockID, i < st.tripRanges.count, st.tripRanges[i].count >= 2 else { continue }
            let r = st.tripRanges[i]
            let first = Int(st.byTrip[Int(r.lowerBound)]), last = Int(st.byTrip[Int(r.upperBound) - 1])
            let start = st.departure[first] >= 0 ? st.departure[first] : st.arrival[first]
            let end = st.arrival[last] >= 0 ? st.arrival[last] : st.departure[last]
            guard start >= 0, end >= 0 else { continue }
            groups["\(block)\u{1F}\(t.serviceID)", default: []].append((start, end, i))
        }
        for key in groups.keys.sorted() {
            let trips = groups[key]!.sorted { ($0.start, $0.trip) < ($1.start, $1.trip) }
            var latest = trips[0]
            for t in trips.dropFirst() {
                if t.start < latest.end {
                    let a = feed.trips[latest.trip], b = feed.trips[t.trip]
                    c.report(Rules.gtfsBlockOverlap, .overlap(b, starts: t.start, before: a, ends: latest.end), "trips",
                        b.line, field: "block_id", entity: "trip_id=\(b.id)",
                        notes: [Diagnostic.Note(.overlappingTrip, at: c.at("trips", a.line, "block_id"))])
                }
                if t.end > latest.end { latest = t }
            }
        }
    }
}

extension String {
    fileprivate static func overlap(_ b: TransitTrip, starts start: Int32, before a: TransitTrip, ends end: Int32)
        -> String
    {
        "trip `\(b.id)` starts at \(gtfsTimeText(start)) before trip `\(a.id)` of the same block `\(b.blockID ?? "")` ends at \(gtfsTimeText(end))"
    }

    fileprivate static let overlappingTrip = "overlapping trip defined here"
}
