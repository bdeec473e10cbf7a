import ArgumentParser
import CityPackBuild
import CityPackFormat
import CityPackSupport
import CityPackKit
import Foundation

/// Output format of data commands (`query`, `inspect`).
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
    case human, json
}

/// `citypack query <manifest-or-pack> --near LAT,LON [--radius M] [--category CAT] | --search TEXT [--near LAT,LON]
/// | --in MINLON,MINLAT,MAXLON,MAXLAT [--category CAT] | --departures STOP_ID --at 'YYYY-MM-DD HH:MM' | --journey FROM --to TO --at 'YYYY-MM-DD HH:MM' [journey options]`:
/// what an app would get.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Query a pack as an app would: places near a point, a text search, places in a box, departures from a stop, or journeys.",
        discussion: """
            JSON output: {"results": [{"id", "kind", "osm", "stop_id", "name", "named", "category", "categories", "also", "linked_id", \
            "lat", "lon", "distance_m"}]}, sorted by distance for --near, and for --search by relevance (a category \
            word such as "toilet": that category's places, nearest first with --near); kind is "poi" or "stop"; "name" \
            is never empty: an unnamed place has its category's label in the locale and "named": false; "category" is \
            the main category and "categories" every category, main first (a pub with Wi-Fi: ["bar", "wifi"]); \
            "also" lists the further ones (a bank with a cash machine: "also": ["atm"]) and is absent when none; \
            "opening_hours" is the OSM value, "open" is "open", "closed" or "unknown" (no readable hours, or they \
            depend on a holiday the pack does not know) at --open-at, else now, in the city's time zone, and \
            "next_change" (ISO 8601 with the offset) when that changes; --open-at/--open-now keep only places open then; "linked_id" is \
            the other id of a GTFS stop and OSM feature of the same place (one result); "distance_m" is there when a \
            position is given. --in MINLON,MINLAT,MAXLON,MAXLAT lists the places in a box (the same rows), named \
            places first, then stations before other places before entrances, then by id (default limit 1000).
            --departures: {"stop": {...}, "departures": [{"line", "headsign", "time", "date", "seconds", "trip",
            "route_type", "colour", "stop_id"}]}, where date is the service date, seconds count from its start (may \
            exceed 86400) and time is the wall clock HH:MM.
            --journey FROM --to TO (a GTFS stop_id, LAT,LON or a stop's name: a station stands for its platforms, \
            same-named stops side by side for the point between them, and a name that fits several places lists \
            them with their stop_ids, exit 1) --at 'YYYY-MM-DD HH:MM' (the feed's local time): \
            {"journeys": [{"id", "departure", "arrival", "transfers", "legs": [{"mode": "walk" | "ride", "from": \
            {"stop_id", "name", "lat", "lon"}, "to": {...}, "departure", "arrival", "trip_id", "route_id", "line", \
            "headsign", "metres", "stops"}]}]}; times are ISO 8601 local date-times with the feed's UTC offset; \
            trip_id, route_id, line, headsign and stops (the calls between boarding and alighting) on ride legs, \
            metres on walk legs. Defaults: --max-transfers 5, --max-walk 800 (0: no walking, changes at one stop \
            only), --min-change 60 seconds, walking 1.25 m/s. --window MIN lists every Pareto journey leaving in \
            [at, at + MIN]; --arrive-by finds the latest departures arriving by --at (searching --window, default \
            120, minutes back); --wheelchair avoids trips and stops the feed marks not accessible.
            Both transit outputs add "timetable": {"first", "last", "date", "position"}: the dates the timetable             covers, the query's date and where it lies ("before", "within", "after"); a date outside has nothing             listed because the data does not reach it (human output says so in a note; the exit code stays 0).
            Exit codes: 0 ok, 64 usage, 66 pack not found, 1 the pack is invalid (bad hash, unknown format version) \
            or has no such stop.
            """)

    @Argument(help: "A manifest.json, a folder holding one, a .citypack.gz or a decompressed pack database.")
    var pack: String

    // `.unconditional`: south of the equator and west of Greenwich the value starts with '-' (`--near -33.86,151.2`).
    @Option(name: .long, parsing: .unconditional, help: "LAT,LON in degrees (negative values are fine: --near -33.86,151.2).")
    var near: String?

    @Option(name: .long, help: "Radius in metres for --near (default \(Int(ReaderDefaults.nearbyRadiusMetres)); not with --search).")
    var radius: Double?

    // `.unconditional`: west of Greenwich or south of the equator the value starts with '-'.
    @Option(name: .customLong("in"), parsing: .unconditional, help: "MINLON,MINLAT,MAXLON,MAXLAT in degrees (as init --bbox; MINLON > MAXLON crosses the antimeridian): the places in the box, for a map.")
    var inBox: String?

    @Option(name: .long, help: "Only places of this category id with --near or --in (e.g. pharmacy).")
    var category: String?

    @Option(name: .long, help: "Search text (any locale; diacritics, ß/ss and the like folded); with --near, nearest first.")
    var search: String?

    @Option(name: .long, help: "GTFS stop_id whose next departures to list (a station includes its platforms).")
    var departures: String?

    @Option(name: .long, help: "Date and time for --departures and --journey: 'YYYY-MM-DD HH:MM' (the feed's local time).")
    var at: String?

    @Option(name: .long, parsing: .unconditional, help: "Journey origin: a GTFS stop_id, LAT,LON or a stop's name.")
    var journey: String?

    @Option(name: .long, parsing: .unconditional, help: "Journey destination: a GTFS stop_id, LAT,LON or a stop's name.")
    var to: String?

    @Flag(name: .long, help: "--at is the latest arrival (journeys).")
    var arriveBy = false

    @Option(name: .long, help: "Departure window in minutes (journeys): every Pareto journey leaving in it.")
    var window: Int?

    @Option(name: .long, help: "Most transfers of a journey.")
    var maxTransfers: Int = ReaderDefaults.maxTransfers

    @Option(name: .long, help: "Longest walk in metres (0: no walking at all).")
    var maxWalk: Int = ReaderDefaults.maxWalkMetres

    @Option(name: .long, help: "Seconds to change at one stop where transfers.txt says nothing.")
    var minChange: Int = ReaderDefaults.minChangeSeconds

    @Flag(name: .long, help: "Step-free journeys: avoid trips and stops the feed marks not wheelchair accessible.")
    var wheelchair = false

    @Option(name: .customLong("open-at"), help: "'YYYY-MM-DD HH:MM' in the city's time zone: only places open then (--near, --search), and \"open\" evaluated then.")
    var openAt: String?

    @Flag(name: .customLong("open-now"), help: "Only places open now in the city's time zone (--near, --search).")
    var openNow = false

    @Option(name: .long, help: "Locale used to pick display names (default: the pack's default locale).")
    var locale: String?

    @Option(name: .long, help: "Maximum number of results (default: \(ReaderDefaults.searchLimit) for --search, \(ReaderDefaults.nearbyLimit) for --near, \(ReaderDefaults.listingLimit) for --in, as the readers; \(ReaderDefaults.commandLineDeparturesLimit) for --departures, where the readers list \(ReaderDefaults.departuresLimit)).")
    var limit: Int?

    @Option(name: .long, help: "Results to skip first (paging).")
    var offset: Int = 0

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    func validate() throws {
        if openAt != nil && openNow { throw ValidationError("give --open-at or --open-now, not both") }
        if let openAt, Self.parseDateTime(openAt) == nil {
            throw ValidationError("--open-at must be 'YYYY-MM-DD HH:MM' (the city's local time), e.g. '2026-11-28 23:00'")
        }
        if (openAt != nil || openNow) && (departures != nil || journey != nil || inBox != nil) {
            throw ValidationError("--open-at and --open-now go with --near or --search")
        }
        if [near != nil || search != nil, departures != nil, journey != nil, inBox != nil].filter({ $0 }).count != 1
            || ((departures != nil || journey != nil) && near != nil)
        {
            throw ValidationError(
                "give one of --near LAT,LON, --search TEXT (with or without --near), --in MINLON,MINLAT,MAXLON,MAXLAT, --departures STOP_ID or --journey FROM --to TO")
        }
        if let inBox {
            if Init.parseBBox(inBox) == nil {
                throw ValidationError("--in must be MINLON,MINLAT,MAXLON,MAXLAT in degrees (e.g. 7.42,43.735,7.43,43.74)")
            }
            if radius != nil { throw ValidationError("--radius goes with --near; --in lists a box") }
        }
        if search != nil && (radius != nil || category != nil) {
            throw ValidationError("--radius and --category go with --near alone; --search --near lists nearest first")
        }
        if departures != nil || journey != nil {
            let what = departures != nil ? "--departures" : "--journey"
            guard let at else { throw ValidationError("\(what) needs --at 'YYYY-MM-DD HH:MM'") }
            if Self.parseDateTime(at) == nil {
                throw ValidationError("--at must be 'YYYY-MM-DD HH:MM' (a real date, 00:00 to 23:59), got '\(at)'")
            }
        } else if at != nil {
            throw ValidationError("--at is only used with --departures and --journey")
        }
        if journey != nil {
            if to == nil { throw ValidationError("--journey needs --to TO (a stop_id or LAT,LON)") }
            if let window, !(1...1440).contains(window) { throw ValidationError("--window must be 1 to 1440 minutes") }
            if !(0...15).contains(maxTransfers) { throw ValidationError("--max-transfers must be 0 to 15") }
            if !(0...5000).contains(maxWalk) { throw ValidationError("--max-walk must be 0 to 5000 metres") }
            if !(0...3600).contains(minChange) { throw ValidationError("--min-change must be 0 to 3600 seconds") }
        } else if to != nil || arriveBy || window != nil || wheelchair {
            throw ValidationError("--to, --arrive-by, --window and --wheelchair are only used with --journey")
        }
        if let near, Self.parseLatLon(near) == nil {
            throw ValidationError("--near must be LAT,LON in degrees (e.g. 43.7384,7.4246)")
        }
        if let radius, !(radius > 0 && radius <= 100_000) { throw ValidationError("--radius must be in (0, 100000] metres") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if offset < 0 { throw ValidationError("--offset must be at least 0") }
    }

    static func parseLatLon(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        return (lat, lon)
    }

    /// A journey end as typed: LAT,LON, a stop_id, else a stop's name (``PackReader/stops(named:locale:)``): one
    /// station or stop, or same-named stops side by side (the point between them, with a note). A name that fits
    /// several places lists them (exit 1), as does a name no stop has.
    static func endpoint(_ text: String, reader: PackReader, locale: String?) throws -> JourneyEndpoint {
        let parsed = JourneyEndpoint(text)
        guard case .stop(let code) = parsed, try reader.transit.stop(id: code) == nil else { return parsed }
        switch try reader.stops(named: text, locale: locale) {
        case .stop(let stop):
            return stop.stopID.map(JourneyEndpoint.stop) ?? parsed
        case .place(let name, let lat, let lon, let stops):
            Terminal.err(
                "note: '\(text)' is \(stops.count) stops side by side (\(name): stop_id \(stops.compactMap(\.stopID).joined(separator: ", "))); "
                    + "the journey uses the point between them, walking to each\n")
            return .coordinate(lat: lat, lon: lon)
        case .ambiguous(let places):
            let lines = places.prefix(20).map {
                "  \($0.stopID ?? "")\t\($0.name ?? "")\t\($0.category == "transit_station" ? "station" : "stop")\t\($0.lat + 0.0),\($0.lon + 0.0)"
            }
            throw CLIError.dataErrors(
                "'\(text)' names \(places.count) places; give the stop_id of one of them (or LAT,LON):\n"
                    + lines.joined(separator: "\n") + (places.count > 20 ? "\n  … and \(places.count - 20) more" : ""))
        case .none:
            throw CLIError.dataErrors("the pack has no stop with stop_id or name '\(text)'")
        }
    }

    /// `YYYY-MM-DD HH:MM` (or with a `T`) → date and seconds since midnight.
    static func parseDateTime(_ text: String) -> (ServiceDate, Int)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == 16 else { return nil }
        let chars = Array(trimmed)
        guard chars[10] == " " || chars[10] == "T", chars[13] == ":", let date = ServiceDate(String(chars[0..<10])),
            chars[11..<13].allSatisfy(\.isASCII), chars[14..<16].allSatisfy(\.isASCII),
            let hours = Int(String(chars[11..<13])), let minutes = Int(String(chars[14..<16])),
            (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return (date, hours * 3600 + minutes * 60)
    }

    func run() throws {
        let reader = try PackArgument.open(pack)
        if let journey, let to, let at, let (date, seconds) = Self.parseDateTime(at) {
            let from = try Self.endpoint(journey, reader: reader, locale: locale)
            let destination = try Self.endpoint(to, reader: reader, locale: locale)
            let options = JourneyOptions(
                maxTransfers: maxTransfers, maxWalkMetres: maxWalk, minChangeSeconds: minChange, wheelchair: wheelchair)
            let list = try reader.transit.journeys(
                from: from, to: destination, date: date, seconds: seconds, arriveBy: arriveBy, window: window,
                options: options)
            JourneyOutput.write(
                list, timezone: reader.transit.timezones.first ?? "", coverage: TimetableOutput(try reader.transit.coverage(), date: date),
                format: format)
            return
        }
        if let departures, let at, let (date, seconds) = Self.parseDateTime(at) {
            guard let stop = try reader.transit.stop(id: departures, locale: locale) else {
                throw CLIError.dataErrors("the pack has no stop with stop_id '\(departures)'")
            }
            let list = try reader.transit.departures(stop: departures, date: date, seconds: seconds, limit: limit ?? ReaderDefaults.commandLineDeparturesLimit)
            DepartureOutput.write(stop: stop, departures: list, coverage: TimetableOutput(try reader.transit.coverage(), date: date), format: format)
            return
        }
        let results: [PlaceResult]
        let position = near.flatMap(Self.parseLatLon).map { Coordinate(lat: $0.0, lon: $0.1) }
        // The instant "open" is evaluated at, and the filter of --open-at / --open-now.
        let zone = reader.timeZone
        let openFilter = openAt.flatMap(Self.parseDateTime).map { date, seconds in
            OpeningHours.LocalTime(year: date.year, month: date.month, day: date.day, minute: seconds / 60).date(in: zone)
        } ?? (openNow ? Date() : nil)
        let evaluated = openFilter ?? Date()
        if let search {
            results = try reader.search(
                search, near: position, locale: locale, limit: limit ?? PackReader.defaultSearchLimit, offset: offset,
                openAt: openFilter)
        } else if let inBox, let box = Init.parseBBox(inBox) {
            results = try reader.places(
                in: box, category: category, limit: limit ?? PackReader.defaultListingLimit, offset: offset, locale: locale)
        } else if let position {
            results = try reader.nearby(
                lat: position.lat, lon: position.lon, radius: radius ?? ReaderDefaults.nearbyRadiusMetres, category: category,
                limit: limit ?? PackReader.defaultNearbyLimit, offset: offset, locale: locale, openAt: openFilter)
        } else {
            results = []
        }
        PlaceOutput.write(results, format: format, locale: locale, at: evaluated, timeZone: zone)
    }
}

/// Opens whatever the user pointed at, mapping failures to exit codes with a clear message.
enum PackArgument {
    static func open(_ path: String) throws -> PackReader {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw CLIError.missingInput("no such pack or manifest: \(path)")
        }
        do {
            if isDir.boolValue {
                return try PackReader.open(manifest: URL(fileURLWithPath: path).appendingPathComponent("manifest.json"))
            }
            if path.hasSuffix(".json") { return try PackReader.open(manifest: URL(fileURLWithPath: path)) }
            return try PackReader.open(URL(fileURLWithPath: path))
        } catch {
            throw CLIError.dataErrors("\(path): \(error)")
        }
    }
}

/// Renders POI results as a table or as `{"results": [...]}`.
enum PlaceOutput {
    struct Row: Encodable {
        var id: Int64
        var kind: String
        var osm: String
        var stop_id: String?
        var name: String?
        /// False when `name` is the category's label (the place has no name of its own).
        var named: Bool
        var category: String
        /// Every category, the main one first.
        var categories: [String]
        /// Further categories; absent when none.
        var also: [String]?
        /// `yes`, `limited` or `no`; absent when unknown.
        var wheelchair: String?
        /// The other id of a linked pair (stop and OSM feature of the same place); absent when none.
        var linked_id: Int64?
        var lat: Double
        var lon: Double
        var distance_m: Double?
        /// OSM `opening_hours` as in the source; absent when none.
        var opening_hours: String?
        /// `open`, `closed` or `unknown` at the query's time (--open-at, else now) in the city's time zone.
        var open: String
        /// When that changes: ISO 8601 local time with the offset; absent when unknown or not within the horizon.
        var next_change: String?
    }

    static func rows(_ results: [PlaceResult], at date: Date = Date(), timeZone: TimeZone) -> [Row] {
        results.map {
            let (open, next) = $0.openState(at: date, timeZone: timeZone)
            return Row(
                id: $0.id, kind: $0.kind.rawValue, osm: $0.osm, stop_id: $0.stopID, name: $0.name, named: $0.named,
                category: $0.category, categories: $0.categories, also: $0.alsoCategories.isEmpty ? nil : $0.alsoCategories,
                wheelchair: $0.wheelchair?.rawValue,
                linked_id: $0.linkedID, lat: $0.lat, lon: $0.lon,
                distance_m: $0.distanceMetres.map { ($0 * 100).rounded() / 100 },
                opening_hours: $0.openingHours, open: open.rawValue,
                next_change: next.map { OpeningHours.iso8601($0, timeZone: timeZone) })
        }
    }

    /// ` open until 2026-11-28T19:00+01:00` for a place with readable hours; empty without.
    static func hoursNote(_ r: PlaceResult, at date: Date, timeZone: TimeZone) -> String {
        guard r.hours != nil else { return r.openingHours.map { " opening_hours=\"\($0)\" (unreadable)" } ?? "" }
        let (state, next) = r.openState(at: date, timeZone: timeZone)
        let until = next.map { " until \(OpeningHours.iso8601($0, timeZone: timeZone))" } ?? ""
        return "  \(state.rawValue)\(until)"
    }

    static func write(
        _ results: [PlaceResult], format: DataFormat, locale: String?, at date: Date = Date(), timeZone: TimeZone
    ) {
        switch format {
        case .json:
            struct Output: Encodable { var results: [Row] }
            Terminal.out(DiagnosticRenderer.encode(Output(results: rows(results, at: date, timeZone: timeZone))))
        case .human:
            var text = ""
            for r in results {
                let distance = r.distanceMetres.map { String(format: "%7.1f m  ", $0) } ?? ""
                text += "\(distance)\(r.category.padding(toLength: 16, withPad: " ", startingAt: 0)) \(r.name ?? "(no name)")  [\(r.kind == .stop ? "stop " + (r.stopID ?? "") : r.osm)] \(r.lat + 0.0),\(r.lon + 0.0)"
                    + (r.wheelchair.map { " wheelchair=\($0.rawValue)" } ?? "") + hoursNote(r, at: date, timeZone: timeZone) + "\n"
            }
            if results.isEmpty { text = "no results\n" }
            Terminal.out(text)
        }
    }
}

/// Renders departures as a board or as `{"stop": {...}, "departures": [...]}`.
enum DepartureOutput {
    struct Row: Encodable {
        var line: String
        var headsign: String?
        var time: String
        var date: String
        var seconds: Int
        var trip: String
        var route_type: Int
        var colour: String?
        var stop_id: String
    }

    static func write(stop: PlaceResult, departures: [Departure], coverage: TimetableOutput?, format: DataFormat) {
        switch format {
        case .json:
            struct Output: Encodable {
                var stop: PlaceOutput.Row
                var departures: [Row]
                var timetable: TimetableOutput?
            }
            let rows = departures.map {
                Row(
                    line: $0.lineName, headsign: $0.headsign, time: $0.displayTime, date: $0.serviceDate.description,
                    seconds: $0.seconds, trip: $0.tripID, route_type: $0.routeType, colour: $0.colour,
                    stop_id: $0.stopID)
            }
            // (A stop has no opening hours: its "open" is "unknown" in any zone.)
            Terminal.out(DiagnosticRenderer.encode(Output(stop: PlaceOutput.rows([stop], timeZone: TimeZone(identifier: "UTC")!)[0], departures: rows, timetable: coverage)))
        case .human:
            var text = "\(stop.name ?? "(no name)")  [stop \(stop.stopID ?? "")]\n"
            for d in departures {
                text += "\(d.displayTime)  \(d.lineName.padding(toLength: 8, withPad: " ", startingAt: 0)) \(d.headsign ?? "")\n"
            }
            if departures.isEmpty { text += "no departures\n" }
            Terminal.out(text + (coverage?.note ?? ""))
        }
    }
}
