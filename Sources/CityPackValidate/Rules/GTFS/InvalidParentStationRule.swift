import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsInvalidParentStation = RuleDescription(
        "gtfs.invalid_parent_station", .gtfs, .error, "parent_station points at a stop of the wrong location_type",
        title: "Invalid parent station",
        rationale: "Stops and entrances belong to stations and boarding areas to platforms; other links break hierarchy.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,S1\n")
                + "ST,Casino,43.74,7.42,1,\n",
            passing: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,ST\n")
                + "ST,Casino,43.74,7.42,1,\n"))
}

/// The stop hierarchy: stops, entrances and generic nodes belong to a station, boarding areas to a platform
/// (a stop), and stations to nothing; entrances and nodes must have a parent. A parent_station that names no
/// stop is `gtfs.dangling_parent_station`, not this rule.
enum InvalidParentStationRule {
    static func check(_ stop: TransitStop, entity: String, _ c: GTFSValidationContext) {
        guard let parentID = stop.parentStation else {
            if stop.locationType >= 2 {
                c.report(Rules.gtfsInvalidParentStation, .parentRequired(stop.locationType), "stops", stop.line,
                    field: "parent_station", entity: entity)
            }
            return
        }
        guard let p = c.stopByID[parentID] else { return }
        let parent = c.feed.stops[p]
        let expected: Int8? =
            switch stop.locationType {
            case 0, 2, 3: 1
            case 4: 0
            default: nil
            }
        if expected != parent.locationType {
            c.report(Rules.gtfsInvalidParentStation, .wrongParent(parentID, parent, stop, expected), "stops",
                stop.line, field: "parent_station", entity: entity,
                notes: [Diagnostic.Note(.parentDefined, at: c.at("stops", parent.line, "location_type"))])
        }
    }
}

extension String {
    fileprivate static func parentRequired(_ type: Int8) -> String {
        "\(GTFSValidator.locationTypeName(type)) requires a parent_station"
    }

    fileprivate static func wrongParent(_ id: String, _ parent: TransitStop, _ stop: TransitStop, _ expected: Int8?)
        -> String
    {
        let want = expected.map { "a \(GTFSValidator.locationTypeName($0))" } ?? "no parent"
        return "parent_station `\(id)` is a \(GTFSValidator.locationTypeName(parent.locationType)), but a "
            + "\(GTFSValidator.locationTypeName(stop.locationType)) needs \(want)"
    }

    fileprivate static let parentDefined = "parent defined here"
}
