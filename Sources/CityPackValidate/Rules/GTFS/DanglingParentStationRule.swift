import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDanglingParentStation = RuleDescription(
        "gtfs.dangling_parent_station", .gtfs, .warning,
        "A stop's parent_station names no stop of the feed; the link is dropped and the stop kept",
        title: "Dangling parent station",
        rationale: "gtfs-validator reports it as an error (foreign_key_violation). The stop itself is whole (name, "
            + "position, departures), so the pack keeps it without a station, as it keeps a stop that names none: "
            + "nothing is guessed and no answer is wrong. Only the grouping of the stop under its station is lost. "
            + "`--werror` or `--rule gtfs.dangling_parent_station=error` refuse the feed as gtfs-validator does.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,ST\n"),
            passing: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,ST\n")
                + "ST,Casino,43.74,7.42,1,\n"))
}

/// A parent_station that names no stop: a warning, since the pack keeps the stop and drops only the link
/// (TransitWriter stores a parent only when it resolves). Not judged when stops.txt lost rows to reading errors
/// (``GTFSValidationContext/canResolve(_:)``). Other dangling references stay `gtfs.foreign_key_violation`.
enum DanglingParentStationRule {
    static func check(_ stop: TransitStop, entity: String, _ c: GTFSValidationContext) {
        guard let parentID = stop.parentStation, c.stopByID[parentID] == nil, c.canResolve("stops") else { return }
        c.report(Rules.gtfsDanglingParentStation, .dangling(parentID), "stops", stop.line, field: "parent_station",
            entity: entity)
    }
}

extension String {
    fileprivate static func dangling(_ id: String) -> String {
        "parent_station `\(id)` is not defined in stops.txt; the pack keeps the stop without a station "
            + "(gtfs-validator: error, foreign_key_violation)"
    }
}
