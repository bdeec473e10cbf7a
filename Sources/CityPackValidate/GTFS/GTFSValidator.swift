import CityPackDiagnostics
import CityPackModel

/// Semantic validation of a ``GTFSFeed`` (keys, references, geometry, times, calendars).
///
/// Rules are grouped by table (`GTFSValidator+Stops.swift`, `+Trips`, `+StopTimes`, `+Calendars`,
/// `+Shapes`) rather than one per file: rules over one table share a single pass and the same lookups, and
/// stop_times can hold millions of rows. Each rule is catalogued in `Rules+GTFS.swift`.
/// Syntax, missing files or columns and unparsable values are reported by the reader, not here.
/// Never prints; thread-safe (all state is local to one call).
public enum GTFSValidator {
    /// Validates a feed.
    /// - Parameters:
    ///   - feed: the feed as read by the ingest stage.
    ///   - bbox: the city bounding box; stops outside get `gtfs.point_outside_pack_bbox`. nil skips the check.
    ///   - buildDate: the date the pack is built for; drives `gtfs.expired_calendar` and `gtfs.feed_expires_soon`.
    ///   - bag: receives diagnostics.
    ///   - incompleteTables: tables (`stops`) that are absent or lost rows to reading errors: the rules run on
    ///     the rows that were read, but references into these tables are not checked (a row that could not be
    ///     read would make every reference to it look dangling). See ``incompleteTables(of:errorFiles:)``.
    public static func validate(
        _ feed: GTFSFeed, bbox: BoundingBox?, buildDate: (year: Int, month: Int, day: Int), bag: DiagnosticBag,
        incompleteTables: Set<String> = []
    ) {
        let context = GTFSValidationContext(feed: feed, bag: bag, bbox: bbox,
            buildDay: GTFSDate.dayNumber(year: buildDate.year, month: buildDate.month, day: buildDate.day),
            incompleteTables: incompleteTables)
        checkAgencies(context)
        checkStops(context)
        checkRoutes(context)
        checkTrips(context)
        checkStopTimes(context)
        checkCalendars(context)
        checkShapes(context)
        checkFrequencies(context)
        checkTransfers(context)
        checkOtherTables(context)
    }

    /// The tables whose references cannot be checked: required or calendar tables that are absent, and tables
    /// with reading errors (`errorFiles`: display paths of files that got an error diagnostic while reading).
    public static func incompleteTables(of feed: GTFSFeed, errorFiles: Set<String>) -> Set<String> {
        var out: Set<String> = []
        for table in ["agency", "stops", "routes", "trips", "stop_times"] where feed.files[table] == nil { out.insert(table) }
        if feed.files["calendar"] == nil && feed.files["calendar_dates"] == nil { out.formUnion(["calendar", "calendar_dates"]) }
        for (table, path) in feed.files where errorFiles.contains(path) { out.insert(table) }
        return out
    }
}

/// Lookups shared by the rule groups, built once per validation.
struct GTFSValidationContext {
    let feed: GTFSFeed
    let bag: DiagnosticBag
    let bbox: BoundingBox?
    /// Days since 1970-01-01 of the build date.
    let buildDay: Int
    let stopByID: [String: Int]
    let routeByID: [String: Int]
    let tripByID: [String: Int]
    let agencyIDs: Set<String>
    let serviceIDs: Set<String>
    let shapeIDs: Set<String>
    /// Tables references into which are not checked (absent, or rows lost to reading errors).
    let incompleteTables: Set<String>

    init(feed: GTFSFeed, bag: DiagnosticBag, bbox: BoundingBox?, buildDay: Int, incompleteTables: Set<String> = []) {
        self.incompleteTables = incompleteTables
        self.feed = feed
        self.bag = bag
        self.bbox = bbox
        self.buildDay = buildDay
        stopByID = Self.firstIndex(feed.stops.lazy.map(\.id))
        routeByID = Self.firstIndex(feed.routes.lazy.map(\.id))
        tripByID = Self.firstIndex(feed.trips.lazy.map(\.id))
        agencyIDs = Set(feed.agencies.compactMap(\.id))
        serviceIDs = Set(feed.calendars.map(\.serviceID)).union(feed.calendarDates.map(\.serviceID))
        shapeIDs = Set(feed.shapes.ids)
    }

    private static func firstIndex<S: Sequence>(_ ids: S) -> [String: Int] where S.Element == String {
        var map: [String: Int] = [:]
        for (i, id) in ids.enumerated() where map[id] == nil { map[id] = i }
        return map
    }

    /// Location of a row (column 1: the model keeps lines, not byte columns) with the field it concerns.
    func at(_ table: String, _ line: Int32, _ field: String? = nil) -> SourceLocation {
        SourceLocation(file: feed.path(table), line: Int(line), column: 1, field: field)
    }

    func report(_ rule: RuleDescription, _ message: String, _ table: String, _ line: Int32, field: String? = nil,
        entity: String? = nil, notes: [Diagnostic.Note] = [])
    {
        bag.report(rule, message, at: at(table, line, field), entity: entity, notes: notes)
    }

    /// Reports rows whose key repeats, with a note pointing at the first occurrence.
    func checkDuplicates<S: Sequence>(_ rows: S, table: String, field: String)
    where S.Element == (key: String, line: Int32) {
        var first: [String: Int32] = [:]
        for row in rows {
            if let line = first[row.key] {
                report(Rules.gtfsDuplicateKey, "duplicate \(field) `\(row.key)`", table, row.line, field: field,
                    entity: "\(field)=\(row.key)",
                    notes: [Diagnostic.Note("first defined here", at: at(table, line, field))])
            } else {
                first[row.key] = row.line
            }
        }
    }

    /// Whether references into `table` can be judged (it was read completely).
    func canResolve(_ table: String) -> Bool { !incompleteTables.contains(table) }

    /// Reports a dangling reference (not when the target table is incomplete).
    func checkReference(_ id: String?, in ids: Set<String>, target: String, table: String, line: Int32,
        field: String, entity: String?)
    {
        guard let id, !ids.contains(id) else { return }
        let targets = target == "calendar or calendar_dates" ? ["calendar", "calendar_dates"] : [target]
        guard targets.contains(where: canResolve) else { return }
        report(Rules.gtfsForeignKeyViolation, "\(field) `\(id)` is not defined in \(target).txt", table, line,
            field: field, entity: entity)
    }
}

/// Calendar arithmetic on `yyyymmdd` integers.
enum GTFSDate {
    /// Days since 1970-01-01 (proleptic Gregorian).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func dayNumber(_ yyyymmdd: Int32) -> Int {
        let v = Int(yyyymmdd)
        return dayNumber(year: v / 10000, month: (v / 100) % 100, day: v % 100)
    }

    /// `YYYY-MM-DD` for messages.
    static func text(_ yyyymmdd: Int32) -> String {
        let v = Int(yyyymmdd)
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(v / 10000)-\(pad((v / 100) % 100))-\(pad(v % 100))"
    }
}

/// `HH:MM:SS` for messages.
func gtfsTimeText(_ seconds: Int32) -> String {
    func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60))"
}
