import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDuplicateKey = RuleDescription(
        "gtfs.duplicate_key", .gtfs, .error, "A primary key repeats within a table",
        title: "Duplicate key",
        rationale: "References to the key become ambiguous; consumers keep different rows.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.stops + "S2,Casino Nord,43.741,7.421,0,\n",
            passing: Base.stops))
}

/// A primary key repeats within a table: references to it become ambiguous. Run on every table with a key
/// (agency, stops, routes, trips, calendar, the tables kept as text) and on calendar_dates, whose key is a service
/// and a date. The finding points at the repeat, with a note on the first row.
enum DuplicateKeyRule {
    /// Reports rows whose key repeats, with a note pointing at the first occurrence.
    static func check<S: Sequence>(_ rows: S, table: String, field: String, _ c: GTFSValidationContext)
    where S.Element == (key: String, line: Int32) {
        var first: [String: Int32] = [:]
        for row in rows {
            if let line = first[row.key] {
                c.report(Rules.gtfsDuplicateKey, .duplicate(field, row.key), table, row.line, field: field,
                    entity: "\(field)=\(row.key)", notes: [Diagnostic.Note(.firstDefined, at: c.at(table, line, field))])
            } else {
                first[row.key] = row.line
            }
        }
    }

    /// Reports a service with two exceptions on one date in calendar_dates.txt, with notes on the first one and
    /// on the service's calendar row.
    static func checkServiceExceptions(_ c: GTFSValidationContext) {
        let feed = c.feed
        let calendarLine = feed.calendars.reduce(into: [String: Int32]()) { m, cal in
            if m[cal.serviceID] == nil { m[cal.serviceID] = cal.line }
        }
        var firstException: [String: Int32] = [:]
        for d in feed.calendarDates {
            let key = "\(d.serviceID) \(GTFSDate.text(d.date))"
            guard let first = firstException[key] else {
                firstException[key] = d.line
                continue
            }
            var notes = [Diagnostic.Note(.firstDefined, at: c.at("calendar_dates", first, "date"))]
            if let line = calendarLine[d.serviceID] {
                notes.append(Diagnostic.Note(.serviceDefined(d.serviceID), at: c.at("calendar", line)))
            }
            c.report(Rules.gtfsDuplicateKey, .twoExceptions(d.serviceID, d.date), "calendar_dates", d.line,
                field: "date", entity: "service_id=\(d.serviceID)", notes: notes)
        }
    }
}

extension String {
    fileprivate static func duplicate(_ field: String, _ key: String) -> String { "duplicate \(field) `\(key)`" }
    fileprivate static let firstDefined = "first defined here"
    fileprivate static func serviceDefined(_ service: String) -> String { "service `\(service)` defined here" }
    fileprivate static func twoExceptions(_ service: String, _ date: Int32) -> String {
        "service `\(service)` has two exceptions on \(GTFSDate.text(date))"
    }
}
