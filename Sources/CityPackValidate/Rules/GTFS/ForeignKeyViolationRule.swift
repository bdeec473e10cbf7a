import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsForeignKeyViolation = RuleDescription(
        "gtfs.foreign_key_violation", .gtfs, .error, "A reference names an ID that its target table lacks",
        title: "Foreign key violation",
        rationale: "A dangling reference drops the row or whole trips in every consumer.",
        example: RuleExample(
            file: "gtfs/trips.txt",
            triggering: Base.edit(Base.trips, "R1,WK,T2", "R2,WK,T2"),
            passing: Base.trips))
}

/// A reference names an ID that its target table lacks: consumers drop the row or whole trips (a dangling
/// parent_station is ``DanglingParentStationRule``: the stop is kept). References into
/// a table that is absent or lost rows to reading errors are not judged (``GTFSValidationContext/canResolve(_:)``),
/// since a row that could not be read would make every reference to it look dangling.
enum ForeignKeyViolationRule {
    /// Reports `id` when it is not one of `ids`. `target` names the table (`stops`), or
    /// `calendar or calendar_dates` for service_id, which may point into either.
    static func check(_ id: String?, in ids: Set<String>, target: String, table: String, line: Int32,
        field: String, entity: String?, _ c: GTFSValidationContext)
    {
        guard let id, !ids.contains(id) else { return }
        let targets = target == "calendar or calendar_dates" ? ["calendar", "calendar_dates"] : [target]
        guard targets.contains(where: c.canResolve) else { return }
        c.report(Rules.gtfsForeignKeyViolation, .notDefined(field, id, in: "\(target).txt"), table, line,
            field: field, entity: entity)
    }

    /// stop_times rows whose trip_id or stop_id the reader could not resolve (it keeps them by row).
    static func checkStopTimes(_ c: GTFSValidationContext) {
        let feed = c.feed
        let st = feed.stopTimes
        for (row, id) in st.unknownTripIDs.sorted(by: { $0.key < $1.key }) where c.canResolve("trips") {
            c.report(Rules.gtfsForeignKeyViolation, .notDefined("trip_id", id, in: "trips.txt"), "stop_times",
                st.line[row], field: "trip_id", entity: "trip_id=\(id)")
        }
        for (row, id) in st.unknownStopIDs.sorted(by: { $0.key < $1.key }) where c.canResolve("stops") {
            let trip = st.trip[row] >= 0 ? feed.trips[Int(st.trip[row])].id : st.unknownTripIDs[row] ?? ""
            c.report(Rules.gtfsForeignKeyViolation, .notDefined("stop_id", id, in: "stops.txt"), "stop_times",
                st.line[row], field: "stop_id", entity: "trip_id=\(trip)")
        }
    }

    /// A value of a table kept as text that is in none of its target columns; `targets` names them for the
    /// message (`fare_media.txt fare_media_id or fare_containers.txt fare_media_id`).
    static func checkTextTable(_ value: String?, in valid: Set<String>, targets: String, table: String, line: Int32,
        column: String, _ c: GTFSValidationContext)
    {
        guard let value, !valid.contains(value) else { return }
        c.report(Rules.gtfsForeignKeyViolation, .notDefined(column, value, in: targets), table, line, field: column,
            entity: "\(column)=\(value)")
    }
}

extension String {
    fileprivate static func notDefined(_ field: String, _ id: String, in target: String) -> String {
        "\(field) `\(id)` is not defined in \(target)"
    }
}
