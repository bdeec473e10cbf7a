import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import Foundation
import Yams
import CityPackSupport

/// Reads `city.yaml`, the file that describes a city's sources, locales, bounding box and rule overrides.
///
/// Every problem becomes a diagnostic with the file's line and column; the loader never throws for bad
/// content, only returns `nil` when no usable `City` can be made.
///
/// ```yaml
/// id: monaco                      # lowercase letters, digits, '-' and '_'
/// name: Monaco
/// names: { fr: Monaco, it: Principato di Monaco }
/// locales: [en, fr]               # the first is the default unless default_locale says otherwise
/// bbox: [7.4091, 43.7247, 7.4398, 43.7519]   # minLon, minLat, maxLon, maxLat (minLon > maxLon: across ±180°)
/// sources:
///   osm: [monaco-2021.osm.gz]     # paths relative to this file
///   gtfs: []
///   editorial: editorial          # folder: cards.csv, situations.csv, actions.csv, routes.csv, route_waypoints.csv
///   copy: copy                    # folder: <locale>.yaml overriding templates/copy/
/// profile: ../../templates           # optional: a folder with categories.json and synonyms.json
/// rules: { osm.poi_missing_name: off, osm.duplicate_poi: error }
/// size_budget: 20000000           # bytes, compressed
/// keep_versions: 2                # previous data versions kept beside the current one (`build --keep` wins)
/// stops_outside_bbox: keep        # GTFS stops outside the bbox stay in the pack (default: drop, one warning)
/// attribution: "© OpenStreetMap contributors, ODbL 1.0"
/// timezone: Europe/Monaco         # IANA zone of "open now" and the clock (init derives it; a feed's wins if absent)
/// limits: { rows: 1000000, zip_ratio: 100 }   # optional bounds on the sources (see InputLimits)
/// ```
public enum CityFileLoader {
    /// Largest city file read, in bytes (1 MiB; real ones are under 2 KB).
    public static let maxCityFileBytes: Int64 = 1 << 20

    /// The file name `citypack` looks for in a city directory.
    public static let fileName = "city.yaml"

    /// Loads the city file of `directory` (or a city file path directly).
    /// - Parameters:
    ///   - path: a city directory or the path of its `city.yaml`.
    ///   - knownRules: the rule codes that `rules:` may name; any other gets `city.unknown_rule`. The rules are
    ///     described in several stages, so the caller passes them in (the compiler's `RuleCatalog.codes`).
    ///   - bag: receives every problem with its location.
    /// - Returns: the city, or nil when errors make it unusable (the bag then holds at least one error).
    public static func load(_ path: String, knownRules: Set<String>, bag: DiagnosticBag) -> City? {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let file = exists && isDirectory.boolValue ? (path as NSString).appendingPathComponent(fileName) : path
        // The city file is untrusted too, and its own limits cannot bound it: a fixed cap far above any real one.
        if let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber,
            size.int64Value > maxCityFileBytes
        {
            bag.report(Rules.citySyntax, "city file is \(size.int64Value) bytes, more than \(maxCityFileBytes); not read",
                at: SourceLocation(file: file))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            bag.report(Rules.cityMissingSource, "cannot read city file '\(file)'", at: SourceLocation(file: file))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            bag.report(Rules.citySyntax, "city file is not UTF-8", at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        return parse(text, file: file, knownRules: knownRules, bag: bag)
    }

    /// Parses city-file text. `file` is used for locations and to resolve relative source paths; `knownRules` as
    /// in ``load(_:knownRules:bag:)``.
    public static func parse(_ text: String, file: String, knownRules: Set<String>, bag: DiagnosticBag) -> City? {
        let root: Node
        do {
            // The basic resolver: values are read from their text (`scalar.string`, `int`, `float`), never by the tag a
            // resolver would give them, and the default one compiles a dozen regular expressions on first use (3 ms).
            guard let node = try Yams.compose(yaml: text, .basic) else {
                bag.report(Rules.cityMissingField, "city file is empty", at: SourceLocation(file: file, line: 1, column: 1))
                return nil
            }
            root = node
        } catch let error as YamlError {
            bag.report(Rules.citySyntax, Self.describe(error), at: Self.location(of: error, file: file))
            return nil
        } catch {
            bag.report(Rules.citySyntax, "\(error)", at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        var reader = Reader(file: file, bag: bag, knownRules: knownRules)
        return reader.city(from: root)
    }

    static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return "YAML syntax: \(problem)"
        case .reader(let problem, _, _, _):
            return "YAML syntax: \(problem)"
        case .duplicatedKeysInMapping(let duplicates, _):
            return "duplicated keys: \(duplicates.joined(separator: ", "))"
        default:
            return "YAML syntax: \(error)"
        }
    }

    static func location(of error: YamlError, file: String) -> SourceLocation {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        default:
            return SourceLocation(file: file, line: 1, column: 1)
        }
    }

    /// Walks the YAML tree, reporting each problem at its node.
    private struct Reader {
        let file: String
        let bag: DiagnosticBag
        /// Rule codes `rules:` may name.
        let knownRules: Set<String>
        var failed = false

        init(file: String, bag: DiagnosticBag, knownRules: Set<String>) {
            self.file = file
            self.bag = bag
            self.knownRules = knownRules
        }

        func at(_ node: Node?) -> SourceLocation {
            guard let mark = node?.mark else { return SourceLocation(file: file, line: 1, column: 1) }
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        }

        mutating func fail(_ rule: RuleDescription, _ message: String, _ node: Node?) {
            bag.report(rule, message, at: at(node))
            failed = true
        }

        mutating func string(_ node: Node?, _ key: String) -> String? {
            guard let node else { return nil }
            guard let s = node.scalar?.string else {
                fail(Rules.citySyntax, "'\(key)' must be a string", node)
                return nil
            }
            return s
        }

        mutating func strings(_ node: Node?, _ key: String) -> [String] {
            guard let node else { return [] }
            if let s = node.scalar?.string { return s.isEmpty ? [] : [s] }
            guard let seq = node.sequence else {
                fail(Rules.citySyntax, "'\(key)' must be a list of strings", node)
                return []
            }
            return seq.compactMap { item in
                guard let s = item.scalar?.string else {
                    fail(Rules.citySyntax, "'\(key)' must be a list of strings", item)
                    return nil
                }
                return s
            }
        }

        mutating func stringMap(_ node: Node?, _ key: String) -> [(String, String, Node)] {
            guard let node else { return [] }
            guard let mapping = node.mapping else {
                fail(Rules.citySyntax, "'\(key)' must be a mapping", node)
                return []
            }
            var out: [(String, String, Node)] = []
            for (k, v) in mapping {
                guard let ks = k.scalar?.string, let vs = v.scalar?.string else {
                    fail(Rules.citySyntax, "'\(key)' entries must be 'key: value' strings", k)
                    continue
                }
                out.append((ks, vs, k))
            }
            return out
        }

        func resolve(_ path: String) -> String {
            if path.hasPrefix("/") { return path }
            let dir = PathText.parent(file)
            return dir.isEmpty ? path : (dir as NSString).appendingPathComponent(path)
        }

        mutating func city(from root: Node) -> City? {
            guard let map = root.mapping else {
                fail(Rules.citySyntax, "the city file must be a mapping of keys to values", root)
                return nil
            }
            let known: Set<String> = [
                "id", "name", "names", "locales", "default_locale", "bbox", "sources", "profile", "rules",
                "size_budget", "attribution", "limits", "keep_versions", "stops_outside_bbox", "timezone",
            ]
            for key in map.keys {
                if let k = key.string, !known.contains(k) {
                    fail(Rules.citySyntax, "unknown key '\(k)'; expected one of \(known.sorted().joined(separator: ", "))", key)
                }
            }
            let id = string(map["id"], "id") ?? ""
            if map["id"] == nil || id.isEmpty {
                fail(Rules.cityMissingField, "missing 'id' (e.g. id: monaco)", map["id"] ?? root)
            } else if !id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) {
                fail(Rules.citySyntax, "'id' must use lowercase ASCII letters, digits, '-' or '_': '\(id)'", map["id"])
            }
            let name = string(map["name"], "name") ?? ""
            if name.isEmpty { fail(Rules.cityMissingField, "missing 'name'", map["name"] ?? root) }

            var names: [String: String] = [:]
            for (locale, value, node) in stringMap(map["names"], "names") {
                if !Self.isLocale(locale) { fail(Rules.cityInvalidLocale, "'\(locale)' is not a locale tag", node) }
                names[locale] = value
            }
            var locales = strings(map["locales"], "locales")
            if locales.isEmpty { locales = ["en"] }
            for locale in locales where !Self.isLocale(locale) {
                fail(Rules.cityInvalidLocale, "'\(locale)' is not a locale tag (e.g. en, fr, pt-BR)", map["locales"])
            }
            let defaultLocale = string(map["default_locale"], "default_locale") ?? locales[0]
            if !locales.contains(defaultLocale) { locales.insert(defaultLocale, at: 0) }

            var bbox = BoundingBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)
            if let node = map["bbox"] {
                let values = (node.sequence.map(Array.init) ?? []).map { $0.float }
                if values.count == 4, let a = values[0], let b = values[1], let c = values[2], let d = values[3] {
                    bbox = BoundingBox(minLon: a, minLat: b, maxLon: c, maxLat: d)
                    if !bbox.isValid {
                        fail(Rules.cityInvalidBBox,
                            "bbox must be [minLon, minLat, maxLon, maxLat] within ±180/±90 with minLat ≤ maxLat", node)
                    } else if bbox.crossesAntimeridian && bbox.lonSpan > 180 {
                        // A box across ±180° is narrow; one wider than half the Earth is min and max swapped.
                        fail(Rules.cityInvalidBBox,
                            "minLon \(a) > maxLon \(c) makes a box across the antimeridian \(Int(bbox.lonSpan.rounded()))° wide; "
                                + "a city that does not cross ±180° needs minLon < maxLon", node)
                    }
                } else {
                    fail(Rules.cityInvalidBBox, "bbox must be a list of four numbers [minLon, minLat, maxLon, maxLat]", node)
                }
            } else {
                fail(Rules.cityMissingField, "missing 'bbox' ([minLon, minLat, maxLon, maxLat]); `citypack init` derives it from the data", root)
            }

            var osm: [String] = []
            var gtfs: [String] = []
            var editorial: String?
            var copy: String?
            if let sources = map["sources"] {
                if let smap = sources.mapping {
                    for key in smap.keys {
                        if let k = key.string, !["osm", "gtfs", "editorial", "copy"].contains(k) {
                            fail(Rules.citySyntax, "unknown source kind '\(k)'; expected osm, gtfs, editorial or copy", key)
                        }
                    }
                    for (kind, list) in [("osm", smap["osm"]), ("gtfs", smap["gtfs"])] {
                        guard let list else { continue }
                        let items = list.sequence.map(Array.init) ?? [list]
                        for item in items {
                            guard let p = item.scalar?.string, !p.isEmpty else {
                                fail(Rules.citySyntax, "'sources.\(kind)' must be a list of paths", item)
                                continue
                            }
                            let full = resolve(p)
                            if let problem = CityFileLoader.sourceProblem(full, kind: kind) {
                                fail(Rules.cityMissingSource, "\(kind) source '\(p)' \(problem) (looked at \(full))", item)
                            }
                            if kind == "osm" { osm.append(full) } else { gtfs.append(full) }
                        }
                    }
                    editorial = folder(smap["editorial"], "editorial")
                    copy = folder(smap["copy"], "copy")
                } else {
                    fail(Rules.citySyntax, "'sources' must be a mapping with 'osm' and/or 'gtfs' lists", sources)
                }
            }
            // Conventional folders beside the city file are used when the city file names none.
            editorial = editorial ?? conventionalFolder("editorial")
            copy = copy ?? conventionalFolder("copy")
            if osm.isEmpty && gtfs.isEmpty && !failed {
                fail(Rules.cityMissingField, "no sources: add 'sources: { osm: [...] }' or 'gtfs: [...]'", map["sources"] ?? root)
            }

            let profile = string(map["profile"], "profile").map(resolve)
            if let profile, !FileManager.default.fileExists(atPath: profile) {
                fail(Rules.cityMissingSource, "profile '\(profile)' not found", map["profile"])
            }

            var overrides: [String: Severity] = [:]
            var disabled: Set<String> = []
            for (code, value, node) in stringMap(map["rules"], "rules") {
                if !knownRules.contains(code) {
                    bag.report(Rules.cityUnknownRule, "unknown rule code '\(code)' (see `citypack rules`)", at: at(node))
                }
                switch value.lowercased() {
                case "off", "ignore", "false": disabled.insert(code)
                case "error": overrides[code] = .error
                case "warning": overrides[code] = .warning
                case "info": overrides[code] = .info
                default: fail(Rules.citySyntax, "rule '\(code)': severity must be error, warning, info or off", node)
                }
            }
            var budget: Int?
            var keepVersions: Int?
            if let node = map["keep_versions"] {
                if let n = node.int, n >= 0 { keepVersions = n } else {
                    fail(Rules.citySyntax, "'keep_versions' must be a whole number of previous versions, 0 or more", node)
                }
            }
            if let node = map["size_budget"] {
                if let n = node.int, n > 0 { budget = n } else { fail(Rules.citySyntax, "'size_budget' must be a positive number of bytes", node) }
            }
            var keepOutside = false
            if let node = map["stops_outside_bbox"] {
                switch node.scalar?.string {
                case "keep": keepOutside = true
                case "drop": keepOutside = false
                default: fail(Rules.citySyntax, "'stops_outside_bbox' must be drop (the default) or keep", node)
                }
            }
            let attribution = string(map["attribution"], "attribution") ?? "© OpenStreetMap contributors"
            let limits = self.limits(map["limits"])
            var timezone: String?
            if let node = map["timezone"] {
                if let zone = node.scalar?.string, !zone.isEmpty, TimeZone(identifier: zone) != nil {
                    timezone = zone
                } else {
                    fail(Rules.citySyntax, "'timezone' must be an IANA time zone such as Europe/Rome (tzdata's names)", node)
                }
            }

            if failed { return nil }
            var city = City(
                id: id, name: name, names: names, defaultLocale: defaultLocale, locales: locales, bbox: bbox,
                osmFiles: osm, gtfsFeeds: gtfs, profile: profile, severityOverrides: overrides,
                disabledRules: disabled, sizeBudget: budget, attribution: attribution,
                directory: PathText.parent(file), file: file)
            city.editorialDirectory = editorial
            city.copyDirectory = copy
            city.limits = limits
            city.keepVersions = keepVersions
            city.keepStopsOutsideBBox = keepOutside
            city.timezone = timezone
            return city
        }

        /// `sources.editorial` / `sources.copy`: one folder path, relative to the city file, that must exist.
        mutating func folder(_ node: Node?, _ kind: String) -> String? {
            guard let node else { return nil }
            guard let p = node.scalar?.string, !p.isEmpty else {
                fail(Rules.citySyntax, "'sources.\(kind)' must be a folder path", node)
                return nil
            }
            let full = resolve(p)
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) || !isDirectory.boolValue {
                fail(Rules.cityMissingSource, "\(kind) folder '\(p)' not found (looked at \(full))", node)
                return nil
            }
            return full
        }

        /// `<city dir>/<name>` when it is a folder.
        func conventionalFolder(_ name: String) -> String? {
            let full = resolve(name)
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) && isDirectory.boolValue ? full : nil
        }

        /// The `limits:` mapping: known keys with positive integer values; defaults for absent keys.
        mutating func limits(_ node: Node?) -> InputLimits {
            var limits = InputLimits()
            guard let node else { return limits }
            guard let mapping = node.mapping else {
                fail(Rules.citySyntax, "'limits' must be a mapping such as { rows: 1000000, depth: 16 }", node)
                return limits
            }
            for (key, value) in mapping {
                guard let name = key.string, limits.value(name) != nil else {
                    fail(Rules.citySyntax,
                        "unknown limit '\(key.string ?? "?")'; expected one of \(InputLimits.keys.joined(separator: ", "))", key)
                    continue
                }
                guard let text = value.scalar?.string, let n = Int64(text.replacingOccurrences(of: "_", with: "")), n > 0
                else {
                    fail(Rules.citySyntax, "limit '\(name)' must be a positive whole number", value)
                    continue
                }
                _ = limits.set(name, n)
            }
            return limits
        }

        static func isLocale(_ s: String) -> Bool { CityFileLoader.isLocale(s) }
    }

    /// Why a source path cannot be read, or nil when it can: OSM sources must be readable regular files, GTFS
    /// sources readable files (zip) or folders.
    static func sourceProblem(_ path: String, kind: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "not found" }
        if isDirectory.boolValue {
            if kind == "osm" { return "is a folder, not an OSM file" }
            return FileManager.default.isReadableFile(atPath: path) && FileManager.default.isExecutableFile(atPath: path)
                ? nil : "is a folder that cannot be read"
        }
        return FileManager.default.isReadableFile(atPath: path) ? nil : "cannot be read (permission denied)"
    }

    /// A BCP 47-style tag: a 2–3 letter language, then optional `-`/`_` subtags of 2–8 letters or digits.
    public static func isLocale(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let lang = parts.first, (2...3).contains(lang.count), lang.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
