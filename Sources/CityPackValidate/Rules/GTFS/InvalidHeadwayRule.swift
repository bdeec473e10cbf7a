import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let gtfsInvalidHeadway = RuleDescription(
        "gtfs.invalid_headway", .gtfs, .error, "A frequency has headway_secs ≤ 0 or end_time ≤ start_time",
        title: "Invalid headway",
        rationale: "Such a frequency generates no or infinitely many trips.",
        example: RuleExample(
            file: "gtfs/frequencies.txt",
            triggering: frequencies("T1,08:00:00,09:00:00,0\n"),
            passing: frequencies("T1,08:00:00,09:00:00,600\n")))

    /// frequencies.txt with `rows`.
    private static func frequencies(_ rows: String) -> String {
        "trip_id,start_time,end_time,headway_secs\n" + rows
    }
}

/// A frequency with headway_secs ≤ 0 or end_time ≤ start_time generates no trips or infinitely many. Rows
/// whose times did not parse were reported by the reader and are not judged.
enum InvalidHeadwayRule {
    /// Checks one row of frequencies.txt; true when it is a usable frequency (times read, positive headway,
    /// end after start), which the overlap rule then compares.
    static func check(_ f: TransitFrequency, _ c: GTFSValidationContext) -> Bool {
        let entity = "trip_id=\(f.tripID)"
        if f.startTime < 0 || f.endTime < 0 {
            return false
        } else if f.headwaySecs <= 0 {
            c.report(Rules.gtfsInvalidHeadway, .notPositive(f.headwaySecs), "frequencies", f.line,
                field: "headway_secs", entity: entity)
            return false
        } else if f.endTime <= f.startTime {
            c.report(Rules.gtfsInvalidHeadway, .endNotAfterStart(f), "frequencies", f.line, field: "end_time",
                entity: entity)
            return false
        }
        return true
    }
}

extension String {
    fileprivate static func notPositive(_ headway: Int32) -> String { "headway_secs \(headway) must be positive" }
    fileprivate static func endNotAfterStart(_ f: TransitFrequency) -> String {
        "end_time \(gtfsTimeText(f.endTime)) is not after start_time \(gtfsTimeText(f.startTime))"
    }
}
