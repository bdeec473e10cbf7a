import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import Foundation

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsFastTravel = RuleDescription(
        "gtfs.fast_travel", .gtfs, .warning, "Travel between consecutive stops is faster than the route type allows",
        title: "Fast travel",
        rationale: "Usually wrong times or misplaced stops (caps: e.g. bus 150 km/h, tram 100 km/h, rail 500 km/h). Every "
            + "such leg is reported, timed as gtfs-validator times it: a feed timed to the second as written, one timed "
            + "to the minute with a minute more.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2,2,1.4\nT1,08:10:00,08:10:00,S3,3,2.8",
                "T1,08:00:20,08:00:20,S3,2,2.8\nT1,08:10:00,08:10:00,S2,3,"),
            passing: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2,2,1.4\nT1,08:10:00,08:10:00,S3,3,2.8",
                "T1,08:05:00,08:06:00,S3,2,2.8\nT1,08:10:00,08:10:00,S2,3,")))
}

/// Travel between consecutive stop_times (both timed) faster than the route type allows: usually wrong times or a
/// misplaced stop. Counted as gtfs-validator's `fast_travel_between_consecutive_stops` counts: every such leg,
/// its time taken as ``legSeconds(departure:arrival:)`` says. Legs that go back in time are
/// `gtfs.arrival_before_previous_departure` instead.
struct FastTravelRule {
    /// route_type by route_id (first row of a repeated ID).
    private let routeTypes: [String: Int32]
    /// The cap for the current trip, in km/h.
    private var cap: Double = 0

    init(_ c: GTFSValidationContext) {
        routeTypes = c.feed.routes.reduce(into: [String: Int32]()) { m, r in
            if m[r.id] == nil { m[r.id] = r.type }
        }
    }

    /// Starts a trip: its route type's cap.
    mutating func start(_ trip: TransitTrip) {
        cap = Self.maxSpeedKmh(routeType: routeTypes[trip.routeID] ?? -1)
    }

    /// The seconds a leg takes, as gtfs-validator counts them: the difference, but a minute when it is not positive,
    /// and a minute more when both times are whole minutes (a feed timed to the minute may mean up to a minute more;
    /// a feed timed to the second means what it says).
    static func legSeconds(departure: Int32, arrival: Int32) -> Int32 {
        let delta = arrival - departure
        if delta <= 0 { return 60 }
        return departure % 60 == 0 && arrival % 60 == 0 ? delta + 60 : delta
    }

    /// Checks the leg from the previous stop_time to row `r`, when both are timed.
    mutating func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let a = walk.previous
        guard a >= 0, st.departure[a] >= 0, st.arrival[r] >= 0, st.arrival[r] >= st.departure[a] else { return }
        let sa = st.stop[a], sb = st.stop[r]
        guard sa >= 0, sb >= 0, let pa = c.feed.stops[Int(sa)].coordinate, let pb = c.feed.stops[Int(sb)].coordinate,
            pa.isValid, pb.isValid
        else { return }
        let metres = GreatCircle.distance(pa.lat, pa.lon, pb.lat, pb.lon)
        let seconds = Double(Self.legSeconds(departure: st.departure[a], arrival: st.arrival[r]))
        let kmh = metres / seconds * 3.6
        guard kmh > cap else { return }
        c.report(Rules.gtfsFastTravel, .tooFast(metres: metres, seconds: seconds, kmh: kmh, cap: cap), "stop_times",
            st.line[r], field: "arrival_time", entity: walk.entity(c),
            notes: [Diagnostic.Note(.previousDeparts, at: c.at("stop_times", st.line[a], "departure_time"))])
    }

    /// Speed caps in km/h by route type (basic types and extended families), as in GTFS validators.
    static func maxSpeedKmh(routeType: Int32) -> Double {
        switch routeType {
        case 0, 900...999: 100  // tram, light rail
        case 1, 400...499: 150  // subway, metro
        case 2, 100...199: 500  // rail
        case 3, 200...299, 700...899: 150  // bus, coach, trolleybus
        case 4, 1000...1299: 80  // ferry
        case 5: 30  // cable tram
        case 6, 7, 1300...1499: 50  // aerial lift, funicular
        case 11: 150  // trolleybus
        case 12: 150  // monorail
        default: 200
        }
    }
}

extension String {
    fileprivate static func tooFast(metres: Double, seconds: Double, kmh: Double, cap: Double) -> String {
        "travel of \(Int(metres)) m in \(Int(seconds)) s is \(Int(kmh)) km/h, over the \(Int(cap)) km/h cap for this route type"
    }

    fileprivate static let previousDeparts = "previous stop_time departs here"
}
