import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let gtfsOverlappingFrequency = RuleDescription(
        "gtfs.overlapping_frequency", .gtfs, .error, "Two frequencies of one trip overlap in time",
        title: "Overlapping frequencies",
        rationale: "The vehicle count during the overlap is undefined.",
        example: RuleExample(
            file: "gtfs/frequencies.txt",
            triggering: frequencies("T1,08:00:00,09:00:00,600\nT1,08:30:00,10:00:00,600\n"),
            passing: frequencies("T1,08:00:00,09:00:00,600\nT1,09:00:00,10:00:00,600\n")))

    /// frequencies.txt with `rows`.
    private static func frequencies(_ rows: String) -> String {
        "trip_id,start_time,end_time,headway_secs\n" + rows
    }
}

/// Two frequencies of one trip that overlap in time leave the number of vehicles during the overlap undefined.
/// Compares the usable frequencies (``InvalidHeadwayRule``) of each trip in start order, trips in trip_id order.
enum OverlappingFrequencyRule {
    static func check(_ frequencies: [TransitFrequency], _ c: GTFSValidationContext) {
        var byTrip: [String: [TransitFrequency]] = [:]
        for f in frequencies { byTrip[f.tripID, default: []].append(f) }
        for (trip, list) in byTrip.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            let sorted = list.sorted { ($0.startTime, $0.line) < ($1.startTime, $1.line) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.startTime < a.endTime {
                c.report(Rules.gtfsOverlappingFrequency, .overlaps(b, a), "frequencies", b.line, field: "start_time",
                    entity: "trip_id=\(trip)", notes: [Diagnostic.Note(.otherFrequency, at: c.at("frequencies", a.line))])
            }
        }
    }
}

extension String {
    fileprivate static func overlaps(_ b: TransitFrequency, _ a: TransitFrequency) -> String {
        "frequency \(gtfsTimeText(b.startTime))–\(gtfsTimeText(b.endTime)) overlaps \(gtfsTimeText(a.startTime))–\(gtfsTimeText(a.endTime))"
    }

    fileprivate static let otherFrequency = "other frequency is here"
}
