import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import CityPackSupport

/// Semantic validation of a ``GTFSFeed`` (keys, references, geometry, times, calendars).
///
/// Each rule is one file in `Rules/GTFS/` with its description, check and messages. The validator walks each
/// table once (`GTFSValidator+Stops.swift`, `+Trips`, `+StopTimes`, `+Calendars`, `+Shapes`, `+OtherTables`)
/// and hands every row to the rules over that table: stop_times can hold millions of rows, so rules share one
/// pass and the same lookups instead of each walking the table again.
/// Syntax, missing files or columns and unparsable values are reported by the reader, not here.
/// Never prints; thread-safe (all state is local to one call).
package enum GTFSValidator {
    /// Validates a feed.
    /// - Parameters:
    ///   - feed: the feed as read by the ingest stage.
    ///   - bbox: the city bounding box; stops outside are counted in one `gtfs.point_outside_pack_bbox`. nil skips
    ///     the check.
    ///   - keepOutsideBBox: the city keeps stops outside its box in the pack (`stops_outside_bbox: keep`): no
    ///     warning then.
    ///   - buildDate: the date the pack is built for; drives `gtfs.expired_calendar` and `gtfs.feed_expires_soon`.
    ///   - bag: receives diagnostics.
    ///   - incompleteTables: tables (`stops`) that are absent or lost rows to reading errors: the rules run on
    ///     the rows that were read, but references into these tables are not checked (a row that could not be
    ///     read would make every reference to it look dangling). See ``incompleteTables(of:errorFiles:)``.
    package static func validate(
        _ feed: GTFSFeed, bbox: BoundingBox?, keepOutsideBBox: Bool = false,
        buildDate: (year: Int, month: Int, day: Int), bag: DiagnosticBag, incompleteTables: Set<String> = []
    ) {
        let context = GTFSValidationContext(feed: feed, bag: bag, bbox: keepOutsideBBox ? nil : bbox,
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
        locateCells(of: feed, bag: bag)
    }

    /// Completes the findings of ``validate(_:bbox:keepOutsideBBox:buildDate:bag:incompleteTables:)``: the rows
    /// keep their line only, so a finding about a field is reported at column 0 and gets its cell's line and
    /// column here, from the reader's scanner (``GTFSFeed/cellLocator``), once for all of them; column 1 when
    /// the cell cannot be found (a feed built in memory, a field the header lacks).
    static func locateCells(of feed: GTFSFeed, bag: DiagnosticBag) {
        let prefix = feed.displayPath + "/"
        bag.relocate(where: { $0.column == 0 && $0.field != nil && $0.line > 0 && $0.file.hasPrefix(prefix) }) { picked in
            let cells = Set(picked.map { GTFSCellReference(file: $0.file, line: $0.line, field: $0.field!) })
            let found = feed.cellLocator?.locate(cells) ?? [:]
            var moved: [SourceLocation: SourceLocation] = [:]
            for location in picked {
                var m = location
                if let cell = found[GTFSCellReference(file: location.file, line: location.line, field: location.field!)] {
                    m.line = cell.line
                    m.column = cell.column
                } else {
                    m.column = 1
                }
                moved[location] = m
            }
            return moved
        }
    }

    /// The tables whose references cannot be checked: required or calendar tables that are absent, and tables
    /// with reading errors (`errorFiles`: display paths of files that got an error diagnostic while reading).
    package static func incompleteTables(of feed: GTFSFeed, errorFiles: Set<String>) -> Set<String> {
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

    /// Location of a row with the field it concerns. The model keeps lines, not byte columns: a field's
    /// location has column 0 until ``GTFSValidator/locateCells(of:bag:)`` finds its cell as validation ends;
    /// a row's has column 1.
    func at(_ table: String, _ line: Int32, _ field: String? = nil) -> SourceLocation {
        SourceLocation(file: feed.path(table), line: Int(line), column: field == nil ? 1 : 0, field: field)
    }

    func report(_ rule: RuleDescription, _ message: String, _ table: String, _ line: Int32, field: String? = nil,
        entity: String? = nil, notes: [Diagnostic.Note] = [])
    {
        bag.report(rule, message, at: at(table, line, field), entity: entity, notes: notes)
    }

    /// Whether references into `table` can be judged (it was read completely).
    func canResolve(_ table: String) -> Bool { !incompleteTables.contains(table) }
}

/// Calendar arithmetic on GTFS `yyyymmdd` integers (the civil-date algorithm itself is `CivilDate`).
enum GTFSDate {
    /// Days since 1970-01-01 (proleptic Gregorian).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        CivilDate.dayNumber(year: year, month: month, day: day)
    }

    static func dayNumber(_ yyyymmdd: Int32) -> Int {
        let v = Int(yyyymmdd)
        return dayNumber(year: v / 10000, month: (v / 100) % 100, day: v % 100)
    }

    /// The `yyyymmdd` integer of a day number.
    static func yyyymmdd(_ dayNumber: Int) -> Int32 {
        let d = CivilDate.date(dayNumber: dayNumber)
        return Int32(d.year * 10000 + d.month * 100 + d.day)
    }

    /// `YYYY-MM-DD` for messages.
    static func text(_ yyyymmdd: Int32) -> String {
        let v = Int(yyyymmdd)
        return "\(v / 10000)-\(ClockTime.twoDigits((v / 100) % 100))-\(ClockTime.twoDigits(v % 100))"
    }
}

/// `HH:MM:SS` for messages.
func gtfsTimeText(_ seconds: Int32) -> String { ClockTime.text(seconds: Int(seconds)) }
