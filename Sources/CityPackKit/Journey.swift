import CityPackFormat
import Foundation

/// Where a journey starts or ends: a GTFS stop (a station includes its platforms) or a point.
public enum JourneyEndpoint: Sendable, Hashable {
    /// A GTFS stop_id (every feed's stop with that id; a station stands for its platforms too).
    case stop(String)
    /// A point in degrees; the journey walks to and from stops within ``JourneyOptions/maxWalkMetres``.
    case coordinate(lat: Double, lon: Double)

    /// Parses `stop_id` or `lat,lon` (two decimal numbers, latitude first).
    public init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)), (-90...90).contains(lat),
            (-180...180).contains(lon)
        {
            self = .coordinate(lat: lat, lon: lon)
        } else {
            self = .stop(text)
        }
    }
}

/// What a journey search may use. Defaults suit a city: up to 5 transfers, 1.25 m/s, 800 m of walking per walk,
/// 60 s to change at one stop.
public struct JourneyOptions: Sendable, Hashable {
    /// Most transfers (changes between vehicles); rides are at most this + 1. Default 5.
    public var maxTransfers: Int
    /// Walking speed in metres per second. Default ``TransitWalking/speed`` (1.25).
    public var walkSpeed: Double
    /// Longest walk (to the first stop, from the last, and each footpath between stops), metres; 0 forbids all
    /// walking, so changes happen only at one stop. Default 800.
    public var maxWalkMetres: Int
    /// Seconds needed to change vehicles at one stop where transfers.txt says nothing; 0 allows boarding at the
    /// second of arrival, as GTFS itself does. Default 60.
    public var minChangeSeconds: Int
    /// Step-free journeys only: no trip marked not wheelchair accessible (GTFS wheelchair_accessible 2), no
    /// boarding or alighting at a stop marked not possible (wheelchair_boarding 2, a platform inheriting its
    /// station's); no information counts as possible, as most feeds say nothing. Default false.
    public var wheelchair: Bool

    public init(maxTransfers: Int = ReaderDefaults.maxTransfers, walkSpeed: Double = TransitWalking.speed,
        maxWalkMetres: Int = ReaderDefaults.maxWalkMetres, minChangeSeconds: Int = ReaderDefaults.minChangeSeconds,
        wheelchair: Bool = false)
    {
        self.wheelchair = wheelchair
        self.maxTransfers = maxTransfers
        self.walkSpeed = walkSpeed
        self.maxWalkMetres = maxWalkMetres
        self.minChangeSeconds = minChangeSeconds
    }
}

/// A place a leg starts or ends at.
public struct JourneyPlace: Sendable, Hashable, Encodable {
    /// GTFS stop_id; nil for a coordinate.
    public var stopID: String?
    /// stop_name; nil for a coordinate.
    public var name: String?
    /// Degrees (0 for a stop without coordinates).
    public var lat: Double
    public var lon: Double
}

/// A stop a ride passes, with its times.
public struct JourneyCall: Sendable, Hashable, Encodable {
    public var place: JourneyPlace
    /// Local date-time of arrival and departure (see ``JourneyTime``).
    public var arrival: JourneyTime
    public var departure: JourneyTime
}

/// A local date-time of the feed's zone: the query date plus seconds (may exceed 86 400 past midnight, or be
/// negative), as the timetable counts them.
public struct JourneyTime: Sendable, Hashable, Encodable, Comparable {
    /// The query's date.
    public var date: ServiceDate
    /// Seconds from `date`'s 00:00.
    public var seconds: Int

    package init(date: ServiceDate, seconds: Int) {
        self.date = date
        self.seconds = seconds
    }

    /// The wall-clock date and time: (date, hour, minute, second).
    public var local: (date: ServiceDate, hour: Int, minute: Int, second: Int) {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let rest = seconds - days * 86_400
        return (date.adding(days: days), rest / 3600, rest % 3600 / 60, rest % 60)
    }

    public static func < (a: JourneyTime, b: JourneyTime) -> Bool { a.absolute < b.absolute }

    /// Seconds since 1970-01-01 00:00 local wall-clock time.
    var absolute: Int { date.dayNumber * 86_400 + seconds }
}

/// One leg of a journey.
public struct JourneyLeg: Sendable, Hashable, Encodable {
    public enum Mode: String, Sendable, Hashable, Encodable {
        case walk, ride
    }
    public var mode: Mode
    public var from: JourneyPlace
    public var to: JourneyPlace
    public var departure: JourneyTime
    public var arrival: JourneyTime
    /// Walks: metres walked.
    public var metres: Int?
    /// Rides: GTFS trip_id, route_id, the line's display name (short name, else long name, else route_id),
    /// route_type, trip_headsign.
    public var tripID: String?
    public var routeID: String?
    public var line: String?
    public var routeType: Int?
    public var headsign: String?
    /// Rides: the service date the trip runs on (its times count from that day).
    public var serviceDate: ServiceDate?
    /// Rides: the stops between boarding and alighting, with their times.
    public var intermediateStops: [JourneyCall] = []
}

/// A journey: legs from origin to destination.
public struct Journey: Sendable, Hashable, Encodable {
    /// Short URL-safe id (base64url) that ``TransitReader/journey(id:options:)`` resolves offline.
    public var id: String
    /// When to leave the origin and when one arrives.
    public var departure: JourneyTime
    public var arrival: JourneyTime
    /// Changes between vehicles (rides − 1; 0 for a walk or a single ride).
    public var transfers: Int
    public var legs: [JourneyLeg]
}

/// What resolving a journey id gives.
public enum JourneyLookup: Sendable, Hashable {
    /// The data still holds the journey.
    case found(Journey)
    /// The data no longer holds it (a newer data version, or a changed timetable); `nearest` is the journey
    /// between the same places departing closest to it (within an hour either side), if any.
    case gone(nearest: Journey?)
    /// The id does not decode.
    case invalid
}
