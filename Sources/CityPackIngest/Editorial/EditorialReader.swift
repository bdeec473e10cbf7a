import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import Foundation

/// Limits for editorial CSV.
public struct EditorialReadOptions: Sendable {
    /// Largest accepted file, in bytes. Default 16 MiB.
    public var maxFileSize: Int = 16 << 20
    /// Most rows per file. Default 100 000.
    public var maxRows: Int = 100_000
    /// Longest value, in bytes. Default 16 KiB.
    public var maxFieldLength: Int = 16 << 10
    public init() {}
}

/// Reads a city's editorial folder: `cards.csv`, `situations.csv`, `actions.csv`, `routes.csv` and
/// `route_waypoints.csv` (each optional), with the shared RFC 4180 scanner (``CSVScanner``).
///
/// Text columns are localised: `title` holds the default locale's text and `title:<locale>` the other locales'
/// (`title:de`). A locale of the city without its column or cell is reported as `editorial.missing_translation`
/// (the default text is used). Syntax and value problems are reported here with `file:line:col`; links between
/// items are the validator's (`EditorialValidator`). Never prints; stateless and thread-safe.
public enum EditorialReader {
    /// The files of an editorial folder, in read order.
    public enum File {
        public static let cards = "cards.csv"
        public static let situations = "situations.csv"
        public static let actions = "actions.csv"
        public static let routes = "routes.csv"
        public static let waypoints = "route_waypoints.csv"
    }

    /// Reads every editorial file present in `directory`.
    /// - Parameters:
    ///   - directory: the editorial folder on disk.
    ///   - displayDirectory: how to name it in diagnostics (e.g. `inputs/monaco/editorial`).
    ///   - defaultLocale: the locale of unsuffixed text columns.
    ///   - locales: every locale of the city (default included).
    ///   - bag: receives diagnostics.
    /// - Returns: the content; waypoints are attached to their routes in sequence order (routes missing from
    ///   `routes.csv` are left for the validator to report through ``EditorialContent/orphanWaypoints``).
    public static func read(
        directory: String, displayDirectory: String, defaultLocale: String, locales: [String], bag: DiagnosticBag,
        options: EditorialReadOptions = EditorialReadOptions()
    ) -> EditorialContent {
        let reader = Reader(defaultLocale: defaultLocale, locales: locales, bag: bag, options: options)
        func path(_ name: String) -> (String, String) {
            ((directory as NSString).appendingPathComponent(name), (displayDirectory as NSString).appendingPathComponent(name))
        }
        var content = EditorialContent()
        content.cards = reader.file(path(File.cards), Reader.cardColumns) { r, row, i in r.card(row, position: i) }
        content.situations = reader.file(path(File.situations), Reader.situationColumns) { r, row, i in
            r.situation(row, position: i)
        }
        content.actions = reader.file(path(File.actions), Reader.actionColumns) { r, row, i in r.action(row, position: i) }
        content.routes = reader.file(path(File.routes), Reader.routeColumns) { r, row, i in r.route(row, position: i) }
        let waypoints = reader.file(path(File.waypoints), Reader.waypointColumns) { r, row, _ in r.waypoint(row) }
        var index: [String: Int] = [:]
        for (i, route) in content.routes.enumerated() where index[route.id] == nil { index[route.id] = i }
        for waypoint in waypoints {
            if let i = index[waypoint.route] {
                content.routes[i].waypoints.append(waypoint)
            } else {
                content.orphanWaypoints.append(waypoint)
            }
        }
        for i in content.routes.indices {
            // Stable: equal sequences keep file order (the validator reports them).
            content.routes[i].waypoints = content.routes[i].waypoints.enumerated()
                .sorted { ($0.element.sequence, $0.offset) < ($1.element.sequence, $1.offset) }.map(\.element)
        }
        return content
    }

    /// Whether a folder holds at least one editorial file.
    public static func hasFiles(in directory: String) -> Bool {
        [File.cards, File.situations, File.actions, File.routes, File.waypoints].contains {
            FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
    }

    /// Parses a waypoint's POI reference: a stable id (`1234`), `n123` / `w45` / `r6`, or `node/123` /
    /// `way/45` / `relation/6`. Returns the stable id (`osmId × 4 + kind`), or nil.
    public static func poiReference(_ text: String) -> Int64? {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) { return Int64(text).flatMap { $0 > 0 ? $0 : nil } }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, let id = Int64(parts[1]), id > 0 {
            switch parts[0] {
            case "node": return OSMRef(.node, id).stableID
            case "way": return OSMRef(.way, id).stableID
            case "relation": return OSMRef(.relation, id).stableID
            default: return nil
            }
        }
        guard let ref = OSMRef(text), ref.id > 0, ref.id < Int64.max / 4 else { return nil }
        return ref.stableID
    }

    private struct Columns {
        var plain: [String]
        var localized: [String]
        var required: [String]
    }

    private struct Reader {
        let defaultLocale: String
        let locales: [String]
        let bag: DiagnosticBag
        let options: EditorialReadOptions

        static let cardColumns = Columns(plain: ["card_id", "icon", "home"], localized: ["title"], required: ["card_id", "title"])
        static let situationColumns = Columns(
            plain: ["situation_id", "card_id"], localized: ["title", "body"], required: ["situation_id", "card_id", "title"])
        static let actionColumns = Columns(
            plain: ["action_id", "situation_id", "kind", "target"], localized: ["label", "text"],
            required: ["action_id", "situation_id", "kind", "label"])
        static let routeColumns = Columns(plain: ["route_id"], localized: ["name", "description"], required: ["route_id", "name"])
        static let waypointColumns = Columns(
            plain: ["route_id", "sequence", "poi", "lat", "lon", "radius"], localized: ["name"],
            required: ["route_id", "sequence"])

        init(defaultLocale: String, locales: [String], bag: DiagnosticBag, options: EditorialReadOptions) {
            self.defaultLocale = defaultLocale
            self.locales = locales
            self.bag = bag
            self.options = options
        }

        var otherLocales: [String] { locales.filter { $0 != defaultLocale } }

        /// Scans one file, calling `make` per row (with the row's 0-based position among delivered rows).
        func file<T>(
            _ paths: (String, String), _ columns: Columns, _ make: (Reader, CSVRow, Int) -> T?
        ) -> [T] {
            let (path, display) = paths
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
            if size > options.maxFileSize {
                bag.report(Rules.csvFileTooLarge, "file is \(size) bytes, over the limit of \(options.maxFileSize)",
                    at: SourceLocation(file: display))
                return []
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                bag.report(Rules.packIOFailure, "cannot read \(display)", at: SourceLocation(file: display))
                return []
            }
            var known = columns.plain + columns.localized
            for name in columns.localized { known += otherLocales.map { "\(name):\($0)" } }
            let csv = CSVOptions(
                newLineInValueSeverity: nil, maxFileSize: options.maxFileSize, maxRows: options.maxRows,
                maxFieldLength: options.maxFieldLength, trimWhitespace: true,
                schema: CSVSchema(known: known, required: columns.required))
            var out: [T] = []
            var position = 0
            var missingRequired = false
            data.withUnsafeBytes { bytes -> Void in
                CSVScanner.scan(bytes, file: display, options: csv, bag: bag) { row in
                    if position == 0 {
                        missingRequired = columns.required.contains { row.header.index(of: $0) == nil }
                    }
                    if missingRequired { return }
                    if let item = make(self, row, position) {
                        out.append(item)
                        position += 1
                    }
                }
            }
            return out
        }

        /// A required cell, or nil after reporting `csv.missing_required_field`.
        func required(_ row: CSVRow, _ column: String) -> String? {
            let c = row.header.index(of: column)
            if let value = row.string(c) { return value }
            bag.report(Rules.csvMissingRequiredField, "`\(column)` is empty", at: row.location(c))
            return nil
        }

        func optional(_ row: CSVRow, _ column: String) -> String? { row.string(row.header.index(of: column)) }

        /// `column` (default locale) and `column:<locale>` for the other locales.
        func localized(_ row: CSVRow, _ column: String) -> LocalizedText {
            guard let text = row.string(row.header.index(of: column)) else { return [:] }
            var out: LocalizedText = [defaultLocale: text]
            for locale in otherLocales {
                let name = "\(column):\(locale)"
                if let value = row.string(row.header.index(of: name)) {
                    out[locale] = value
                } else {
                    let c = row.header.index(of: name) ?? row.header.index(of: column)
                    bag.report(Rules.editorialMissingTranslation,
                        "`\(column)` has no \(locale) text (`\(name)`); the \(defaultLocale) text is used",
                        at: row.location(c), entity: "\(column):\(locale)")
                }
            }
            return out
        }

        func card(_ row: CSVRow, position: Int) -> Card? {
            guard let id = required(row, "card_id"), let _ = required(row, "title") else { return nil }
            var home = true
            let homeColumn = row.header.index(of: "home")
            if let value = row.string(homeColumn) {
                switch value.lowercased() {
                case "1", "true", "yes": home = true
                case "0", "false", "no": home = false
                default:
                    bag.report(Rules.csvInvalidValue, "`home` must be 1 or 0, got `\(value)`", at: row.location(homeColumn))
                }
            }
            return Card(id: id, title: localized(row, "title"), icon: optional(row, "icon"), home: home,
                position: position, location: row.location(row.header.index(of: "card_id")))
        }

        func situation(_ row: CSVRow, position: Int) -> Situation? {
            guard let id = required(row, "situation_id"), let card = required(row, "card_id"),
                required(row, "title") != nil
            else { return nil }
            return Situation(
                id: id, card: card, title: localized(row, "title"), body: localized(row, "body"), position: position,
                location: row.location(row.header.index(of: "situation_id")),
                cardLocation: row.location(row.header.index(of: "card_id")))
        }

        func action(_ row: CSVRow, position: Int) -> Action? {
            guard let id = required(row, "action_id"), let situation = required(row, "situation_id"),
                let kindText = required(row, "kind"), required(row, "label") != nil
            else { return nil }
            let kindColumn = row.header.index(of: "kind")
            guard let kind = ActionKind(rawValue: kindText) else {
                bag.report(Rules.editorialInvalidAction,
                    "unknown action kind `\(kindText)`; expected one of \(ActionKind.allCases.map(\.rawValue).joined(separator: ", "))",
                    at: row.location(kindColumn), entity: id)
                return nil
            }
            let targetColumn = row.header.index(of: "target")
            return Action(
                id: id, situation: situation, kind: kind, target: row.string(targetColumn) ?? "",
                label: localized(row, "label"), text: localized(row, "text"), position: position,
                location: row.location(row.header.index(of: "action_id")),
                situationLocation: row.location(row.header.index(of: "situation_id")),
                targetLocation: row.location(targetColumn ?? kindColumn))
        }

        func route(_ row: CSVRow, position: Int) -> WalkingRoute? {
            guard let id = required(row, "route_id"), required(row, "name") != nil else { return nil }
            return WalkingRoute(
                id: id, name: localized(row, "name"), description: localized(row, "description"), position: position,
                location: row.location(row.header.index(of: "route_id")))
        }

        func waypoint(_ row: CSVRow) -> Waypoint? {
            guard let route = required(row, "route_id"), let sequenceText = required(row, "sequence") else { return nil }
            let sequenceColumn = row.header.index(of: "sequence")
            guard let sequence = Int(sequenceText), sequence >= 0 else {
                bag.report(Rules.csvInvalidValue, "`sequence` must be a non-negative integer, got `\(sequenceText)`",
                    at: row.location(sequenceColumn))
                return nil
            }
            let entity = "\(route)#\(sequence)"
            let poiColumn = row.header.index(of: "poi")
            let latColumn = row.header.index(of: "lat")
            let lonColumn = row.header.index(of: "lon")
            let poiText = row.string(poiColumn)
            let latText = row.string(latColumn)
            let lonText = row.string(lonColumn)
            let place: WaypointPlace
            let placeLocation: SourceLocation
            if let poiText {
                if latText != nil || lonText != nil {
                    bag.report(Rules.editorialInvalidWaypoint,
                        "waypoint has both `poi` and `lat`/`lon`; give one (a POI's position comes from the pack)",
                        at: row.location(poiColumn), entity: entity)
                    return nil
                }
                guard let id = EditorialReader.poiReference(poiText) else {
                    bag.report(Rules.editorialInvalidWaypoint,
                        "`poi` must be a stable id (1234), an OSM ref (n123, w45) or node/123, got `\(poiText)`",
                        at: row.location(poiColumn), entity: entity)
                    return nil
                }
                place = .poi(id)
                placeLocation = row.location(poiColumn)
            } else if let latText, let lonText {
                guard let lat = Double(latText), lat.isFinite, abs(lat) <= 90 else {
                    bag.report(Rules.csvInvalidValue, "`lat` must be a latitude in degrees, got `\(latText)`",
                        at: row.location(latColumn))
                    return nil
                }
                guard let lon = Double(lonText), lon.isFinite, abs(lon) <= 180 else {
                    bag.report(Rules.csvInvalidValue, "`lon` must be a longitude in degrees, got `\(lonText)`",
                        at: row.location(lonColumn))
                    return nil
                }
                place = .point(Coordinate(lat: lat, lon: lon))
                placeLocation = row.location(latColumn)
            } else {
                bag.report(Rules.editorialInvalidWaypoint, "waypoint has neither `poi` nor both `lat` and `lon`",
                    at: row.location(poiColumn ?? latColumn ?? sequenceColumn), entity: entity)
                return nil
            }
            var radius = Waypoint.defaultRadius
            let radiusColumn = row.header.index(of: "radius")
            if let text = row.string(radiusColumn) {
                guard let r = Double(text), r.isFinite, r >= 5, r <= 1000 else {
                    bag.report(Rules.editorialInvalidWaypoint, "`radius` must be 5 to 1000 metres, got `\(text)`",
                        at: row.location(radiusColumn), entity: entity)
                    return nil
                }
                radius = r
            }
            var name: LocalizedText = [:]
            if row.string(row.header.index(of: "name")) != nil { name = localized(row, "name") }
            return Waypoint(
                route: route, sequence: sequence, place: place, name: name, radius: radius,
                location: row.location(sequenceColumn), placeLocation: placeLocation)
        }
    }
}
