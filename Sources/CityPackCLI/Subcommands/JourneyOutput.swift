import CityPackBuild
import CityPackKit
import Foundation

/// Renders journeys as a planner shows them or as `{"journeys": [...]}` (the contract in `query --help`).
enum JourneyOutput {
    struct Place: Encodable {
        var stop_id: String?
        var name: String?
        var lat: Double
        var lon: Double
    }

    struct Call: Encodable {
        var stop_id: String?
        var name: String?
        var arrival: String
        var departure: String
    }

    struct Leg: Encodable {
        var mode: String
        var from: Place
        var to: Place
        var departure: String
        var arrival: String
        var trip_id: String?
        var route_id: String?
        var line: String?
        var headsign: String?
        var metres: Int?
        var stops: [Call]?
    }

    struct Row: Encodable {
        var id: String
        var departure: String
        var arrival: String
        var transfers: Int
        var legs: [Leg]
    }

    static func place(_ p: JourneyPlace) -> Place { Place(stop_id: p.stopID, name: p.name, lat: p.lat, lon: p.lon) }

    static func rows(_ journeys: [Journey], timezone: String) -> [Row] {
        func iso(_ t: JourneyTime) -> String { TransitReader.iso8601(t, timezone: timezone) }
        return journeys.map { j in
            Row(
                id: j.id, departure: iso(j.departure), arrival: iso(j.arrival), transfers: j.transfers,
                legs: j.legs.map { leg in
                    Leg(
                        mode: leg.mode.rawValue, from: place(leg.from), to: place(leg.to), departure: iso(leg.departure),
                        arrival: iso(leg.arrival), trip_id: leg.tripID, route_id: leg.routeID, line: leg.line,
                        headsign: leg.headsign, metres: leg.mode == .walk ? leg.metres ?? 0 : nil,
                        stops: leg.mode == .ride
                            ? leg.intermediateStops.map {
                                Call(stop_id: $0.place.stopID, name: $0.place.name, arrival: iso($0.arrival),
                                    departure: iso($0.departure))
                            } : nil)
                })
        }
    }

    static func write(_ journeys: [Journey], timezone: String, coverage: TimetableOutput?, format: DataFormat) {
        switch format {
        case .json:
            struct Output: Encodable {
                var journeys: [Row]
                var timetable: TimetableOutput?
            }
            Terminal.out(DiagnosticRenderer.encode(Output(journeys: rows(journeys, timezone: timezone), timetable: coverage)))
        case .human:
            Terminal.out(human(journeys) + (coverage?.note ?? ""))
        }
    }

    /// `HH:MM` of a journey time, with `(+1)` on a later day than the first departure.
    static func clock(_ t: JourneyTime, from first: JourneyTime) -> String {
        let l = t.local
        let days = l.date.yyyymmdd == first.local.date.yyyymmdd ? "" : (t < first ? " (-1)" : " (+1)")
        return String(format: "%02d:%02d", l.hour, l.minute) + days
    }

    static func human(_ journeys: [Journey]) -> String {
        guard let first = journeys.first else { return "no journeys\n" }
        var text = ""
        for (n, j) in journeys.enumerated() {
            let minutes = (j.arrival.seconds - j.departure.seconds + 59) / 60
            let changes = j.transfers == 0 ? "direct" : j.transfers == 1 ? "1 change" : "\(j.transfers) changes"
            if n > 0 { text += "\n" }
            text += "\(j.departure.local.date)  \(clock(j.departure, from: first.departure)) → "
                + "\(clock(j.arrival, from: first.departure))  \(minutes) min, \(changes)   id \(j.id)\n"
            for leg in j.legs {
                let from = leg.from.name ?? leg.from.stopID ?? String(format: "%.5f,%.5f", leg.from.lat, leg.from.lon)
                let to = leg.to.name ?? leg.to.stopID ?? String(format: "%.5f,%.5f", leg.to.lat, leg.to.lon)
                let times = "\(clock(leg.departure, from: first.departure))–\(clock(leg.arrival, from: first.departure))"
                switch leg.mode {
                case .walk:
                    text += "  \(times)  walk \(leg.metres ?? 0) m  \(from) → \(to)\n"
                case .ride:
                    let stops = leg.intermediateStops.count + 1
                    text += "  \(times)  \(leg.line ?? "")\(leg.headsign.map { " to \($0)" } ?? "")  \(from) → \(to)"
                        + "  (\(stops) stop\(stops == 1 ? "" : "s"))\n"
                }
            }
        }
        return text
    }
}

/// The dates a pack's timetable covers, as `query --journey` and `--departures` report them: `{"first", "last",
/// "date", "position"}` (`before`, `within`, `after`), and in human output a note when the date is outside (what
/// is listed then is walking only, or a board's departures of the next day when that day is covered).
struct TimetableOutput: Encodable {
    var first: String
    var last: String
    /// The query's date.
    var date: String
    var position: String

    init?(_ coverage: TimetableCoverage?, date: ServiceDate) {
        guard let coverage else { return nil }
        first = coverage.first.description
        last = coverage.last.description
        self.date = date.description
        position = coverage.position(of: date).rawValue
    }

    /// A line saying the timetable does not reach the date ("" when it does).
    var note: String {
        switch position {
        case "after": "note: the timetable ends on \(last) and \(date) is after it: the pack has no trips that day (the data is old; rebuild with a current feed)\n"
        case "before": "note: the timetable starts on \(first) and \(date) is before it: the pack has no trips that day\n"
        default: ""
        }
    }
}
