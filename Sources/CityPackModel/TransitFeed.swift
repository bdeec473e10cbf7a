import CityPackDiagnostics
import CityPackGeometry
import CityPackSupport
/// A GTFS feed as read by the ingest stage: compact tables, each row remembering its source line.
///
/// Rows keep the raw IDs they reference (so validation can report dangling ones); resolved indices are
/// filled where the reader could resolve them. Times are seconds from "00:00:00" of the service day
/// (values past 24:00:00 are kept as is, e.g. 25:10:00 = 90 600); `-1` marks a missing time.
public struct GTFSFeed: Sendable {
    /// Display path of the feed (directory or zip) as given by the caller.
    public var displayPath: String
    /// Table name (`stops`) → display path of its file (`gtfs/stops.txt`) for every file present.
    public var files: [String: String]
    /// Every file name found in the feed, including ones CityPack does not read.
    public var allFileNames: [String]
    /// Lines (1-based) of the header row of each present table, keyed like ``files``.
    public var headerLines: [String: Int]

    public var agencies: [TransitAgency] = []
    public var stops: [TransitStop] = []
    public var routes: [TransitRoute] = []
    public var trips: [TransitTrip] = []
    public var stopTimes = TransitStopTimes()
    public var calendars: [TransitCalendar] = []
    public var calendarDates: [TransitCalendarDate] = []
    public var shapes = TransitShapePoints()
    public var frequencies: [TransitFrequency] = []
    public var transfers: [TransitTransfer] = []
    public var feedInfo: TransitFeedInfo?
    /// The newest modification time a zip feed records for its files (seconds since 1970, UTC; nil for a folder).
    public var archiveTime: Int64?
    /// Other GTFS tables (fares, attributions, networks, areas, levels, pathways) kept as text for key and
    /// reference checks, keyed by table name.
    public var extraTables: [String: TransitExtraTable] = [:]
    /// Finds where the cells of the feed's rows start (the rows keep their line only), for the findings that
    /// name a field; set by the reader, nil for a feed built in memory (its findings keep column 1).
    public var cellLocator: (any GTFSCellLocator)?

    public init(displayPath: String, files: [String: String] = [:], allFileNames: [String] = []) {
        self.displayPath = displayPath
        self.files = files
        self.allFileNames = allFileNames
        self.headerLines = [:]
    }

    /// Display path for a table's file, falling back to `<feed>/<table>.txt`.
    public func path(_ table: String) -> String { files[table] ?? "\(displayPath)/\(table).txt" }

    /// A time the feed's data gives (seconds since 1970, UTC), for a pack's `created_at` when the OSM data has
    /// no timestamps: the newest file time recorded inside a zip, else feed_info's `feed_start_date`, else the
    /// first day of service in calendar.txt or calendar_dates.txt (at 00:00 UTC); nil when the feed has none.
    /// Never the file system's times, so `touch feed.zip` or a fresh checkout does not change a pack.
    public var dataTime: Int64? {
        if let archiveTime { return archiveTime }
        func midnight(_ yyyymmdd: Int32) -> Int64? {
            let v = Int(yyyymmdd), month = (v / 100) % 100, day = v % 100
            guard v > 0, (1...12).contains(month), (1...31).contains(day) else { return nil }
            return Int64(CivilDate.dayNumber(year: v / 10000, month: month, day: day)) * 86_400
        }
        if let start = feedInfo?.startDate, let t = midnight(start) { return t }
        let first = (calendars.map(\.startDate) + calendarDates.map(\.date)).filter { $0 > 0 }.min()
        return first.flatMap(midnight)
    }
}

/// A cell of one of a feed's files: the row at `line` of `file` (a display path of ``GTFSFeed/files``) and
/// the column its header names `field`.
public struct GTFSCellReference: Sendable, Hashable {
    public var file: String
    public var line: Int
    public var field: String
    public init(file: String, line: Int, field: String) {
        self.file = file
        self.line = line
        self.field = field
    }
}

/// Where cells start in a feed's files, found by the reader's own scanner (folders and zips alike).
public protocol GTFSCellLocator: Sendable {
    /// The location (the cell's line and 1-based byte column, and its field) of each cell asked for that was
    /// found: a row the reader read, in a file whose header names the field. Cells not found are left out.
    func locate(_ cells: Set<GTFSCellReference>) -> [GTFSCellReference: SourceLocation]
}

/// A row of agency.txt.
public struct TransitAgency: Sendable, Hashable {
    public var id: String?
    public var name: String
    public var url: String
    public var timezone: String
    public var line: Int32
    public init(id: String?, name: String, url: String, timezone: String, line: Int32) {
        self.id = id
        self.name = name
        self.url = url
        self.timezone = timezone
        self.line = line
    }
}

/// A row of stops.txt. `locationType`: 0 stop/platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
public struct TransitStop: Sendable, Hashable {
    public var id: String
    public var name: String?
    /// Degrees; nil when stop_lat or stop_lon is empty or invalid.
    public var coordinate: Coordinate?
    public var locationType: Int8
    public var parentStation: String?
    public var zoneID: String?
    /// stop_timezone (an IANA zone) when the row gives a valid one.
    public var timezone: String?
    /// wheelchair_boarding: 0 no information (empty or invalid), 1 possible, 2 not possible.
    public var wheelchairBoarding: Int8
    public var line: Int32
    public init(id: String, name: String?, coordinate: Coordinate?, locationType: Int8, parentStation: String?,
        zoneID: String? = nil, timezone: String? = nil, wheelchairBoarding: Int8 = 0, line: Int32)
    {
        self.wheelchairBoarding = wheelchairBoarding
        self.zoneID = zoneID
        self.timezone = timezone
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.locationType = locationType
        self.parentStation = parentStation
        self.line = line
    }
}

/// A row of routes.txt. Colours are `RRGGBB` hex without `#`.
public struct TransitRoute: Sendable, Hashable {
    public var id: String
    public var agencyID: String?
    public var shortName: String?
    public var longName: String?
    /// GTFS route_type (0–12 basic, 100–1700 extended); -1 when invalid.
    public var type: Int32
    public var color: String?
    public var textColor: String?
    public var networkID: String?
    public var line: Int32
    public init(id: String, agencyID: String?, shortName: String?, longName: String?, type: Int32, color: String?,
        textColor: String?, networkID: String? = nil, line: Int32)
    {
        self.networkID = networkID
        self.id = id
        self.agencyID = agencyID
        self.shortName = shortName
        self.longName = longName
        self.type = type
        self.color = color
        self.textColor = textColor
        self.line = line
    }
}

/// A row of trips.txt.
public struct TransitTrip: Sendable, Hashable {
    public var id: String
    public var routeID: String
    public var serviceID: String
    public var headsign: String?
    public var directionID: Int8?
    public var blockID: String?
    public var shapeID: String?
    /// wheelchair_accessible: 0 no information (empty or invalid), 1 accessible, 2 not.
    public var wheelchairAccessible: Int8
    public var line: Int32
    public init(id: String, routeID: String, serviceID: String, headsign: String?, directionID: Int8?,
        blockID: String?, shapeID: String?, wheelchairAccessible: Int8 = 0, line: Int32)
    {
        self.wheelchairAccessible = wheelchairAccessible
        self.id = id
        self.routeID = routeID
        self.serviceID = serviceID
        self.headsign = headsign
        self.directionID = directionID
        self.blockID = blockID
        self.shapeID = shapeID
        self.line = line
    }
}

/// stop_times.txt as parallel arrays (struct of arrays): 435 k rows cost about 17 MB.
///
/// `trip` and `stop` index ``GTFSFeed/trips`` and ``GTFSFeed/stops``, or are -1 when the ID is unknown (the
/// raw ID is then in ``unknownTripIDs``/``unknownStopIDs`` by row). `byTrip` lists row indices grouped by
/// trip and sorted by stop_sequence; `tripRanges[t]` is trip t's slice of it.
public struct TransitStopTimes: Sendable {
    public var trip: [Int32] = []
    public var stop: [Int32] = []
    public var sequence: [Int32] = []
    /// Seconds, -1 when empty.
    public var arrival: [Int32] = []
    /// Seconds, -1 when empty.
    public var departure: [Int32] = []
    /// shape_dist_traveled, NaN when empty.
    public var distance: [Float] = []
    /// timepoint (0 or 1, -1 when empty or invalid), by row; empty when the file has no timepoint column (a byte a
    /// row only for feeds that give one).
    public var timepoint: [Int8] = []
    public var line: [Int32] = []
    public var unknownTripIDs: [Int: String] = [:]
    public var unknownStopIDs: [Int: String] = [:]
    public var byTrip: [Int32] = []
    public var tripRanges: [Range<Int32>] = []

    public init() {}
    public var count: Int { trip.count }
}

/// A row of calendar.txt. Dates are `yyyymmdd` integers; `days` bit 0 = Monday … bit 6 = Sunday.
public struct TransitCalendar: Sendable, Hashable {
    public var serviceID: String
    public var days: UInt8
    public var startDate: Int32
    public var endDate: Int32
    public var line: Int32
    public init(serviceID: String, days: UInt8, startDate: Int32, endDate: Int32, line: Int32) {
        self.serviceID = serviceID
        self.days = days
        self.startDate = startDate
        self.endDate = endDate
        self.line = line
    }
}

/// A row of calendar_dates.txt. `exceptionType` 1 = added, 2 = removed.
public struct TransitCalendarDate: Sendable, Hashable {
    public var serviceID: String
    public var date: Int32
    public var exceptionType: Int8
    public var line: Int32
    public init(serviceID: String, date: Int32, exceptionType: Int8, line: Int32) {
        self.serviceID = serviceID
        self.date = date
        self.exceptionType = exceptionType
        self.line = line
    }
}

/// shapes.txt as parallel arrays. `shape` indexes ``ids``.
public struct TransitShapePoints: Sendable {
    public var ids: [String] = []
    public var shape: [Int32] = []
    public var lat: [Double] = []
    public var lon: [Double] = []
    public var sequence: [Int32] = []
    /// shape_dist_traveled, NaN when empty.
    public var distance: [Float] = []
    public var line: [Int32] = []
    public init() {}
    public var count: Int { shape.count }
}

/// A row of frequencies.txt (times in seconds; -1 when the cell did not parse).
public struct TransitFrequency: Sendable, Hashable {
    public var tripID: String
    public var startTime: Int32
    public var endTime: Int32
    public var headwaySecs: Int32
    public var exactTimes: Bool
    public var line: Int32
    public init(tripID: String, startTime: Int32, endTime: Int32, headwaySecs: Int32, exactTimes: Bool, line: Int32) {
        self.tripID = tripID
        self.startTime = startTime
        self.endTime = endTime
        self.headwaySecs = headwaySecs
        self.exactTimes = exactTimes
        self.line = line
    }
}

/// A row of transfers.txt.
public struct TransitTransfer: Sendable, Hashable {
    public var fromStopID: String?
    public var toStopID: String?
    public var fromRouteID: String?
    public var toRouteID: String?
    public var fromTripID: String?
    public var toTripID: String?
    public var transferType: Int8
    /// min_transfer_time in seconds, nil when empty or invalid.
    public var minTransferTime: Int32?
    public var line: Int32
    public init(fromStopID: String?, toStopID: String?, fromRouteID: String?, toRouteID: String?,
        fromTripID: String?, toTripID: String?, transferType: Int8, minTransferTime: Int32? = nil, line: Int32)
    {
        self.minTransferTime = minTransferTime
        self.fromStopID = fromStopID
        self.toStopID = toStopID
        self.fromRouteID = fromRouteID
        self.toRouteID = toRouteID
        self.fromTripID = fromTripID
        self.toTripID = toTripID
        self.transferType = transferType
        self.line = line
    }
}

/// The row of feed_info.txt (dates `yyyymmdd`, nil when empty).
public struct TransitFeedInfo: Sendable, Hashable {
    public var publisherName: String
    public var publisherURL: String
    public var lang: String
    public var startDate: Int32?
    public var endDate: Int32?
    public var version: String?
    public var line: Int32
    public init(publisherName: String, publisherURL: String, lang: String, startDate: Int32?, endDate: Int32?,
        version: String?, line: Int32)
    {
        self.publisherName = publisherName
        self.publisherURL = publisherURL
        self.lang = lang
        self.startDate = startDate
        self.endDate = endDate
        self.version = version
        self.line = line
    }
}

/// A table CityPack does not model, kept as text (empty cells are nil) with each row's line.
public struct TransitExtraTable: Sendable {
    public var columns: [String]
    public var rows: [[String?]]
    public var lines: [Int32]
    public init(columns: [String], rows: [[String?]] = [], lines: [Int32] = []) {
        self.columns = columns
        self.rows = rows
        self.lines = lines
    }

    /// Index of a column, or nil when absent.
    public func column(_ name: String) -> Int? { columns.firstIndex(of: name) }
}
