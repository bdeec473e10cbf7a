import CityPackCompiler
import CityPackDiagnostics
import CityPackSupport
import Foundation

/// Renders diagnostics for people and machines. Only the CLI renders; libraries report into a bag.
///
/// Formats (documented in docs/DIAGNOSTICS.md): human (clang-style, with source lines and carets), JSON
/// (schema version 1), SARIF 2.1.0 and GitHub Actions workflow commands.
package enum DiagnosticRenderer {
    /// Limits on what the human and GitHub formats list (machine reports are always complete).
    package struct Limits {
        /// Stop listing after this many errors; 0 = no limit.
        package var maxErrors = 0
        /// Stop listing after this many diagnostics of any severity.
        package var maxDiagnostics = Int.max
        /// List at most this many warnings and infos of one rule (errors are all listed); 0 = no limit. Human
        /// format only: a first build should show each kind of problem, not sixty lines of one.
        package var maxPerRule = 0

        package init(maxErrors: Int = 0, maxDiagnostics: Int = Int.max, maxPerRule: Int = 0) {
            self.maxErrors = maxErrors
            self.maxDiagnostics = maxDiagnostics
            self.maxPerRule = maxPerRule
        }
    }

    /// Drops the warnings and infos of a rule past the first `limit` (0 keeps all); returns what is kept and,
    /// per rule code in order of first appearance, how many were dropped and of which severity.
    package static func perRule(_ diagnostics: [Diagnostic], limit: Int) -> ([Diagnostic], [(code: String, count: Int, severity: Severity)]) {
        guard limit > 0 else { return (diagnostics, []) }
        var seen: [String: Int] = [:]
        var kept: [Diagnostic] = []
        var dropped: [(code: String, count: Int, severity: Severity)] = []
        var droppedIndex: [String: Int] = [:]
        for d in diagnostics {
            guard d.severity != .error else {
                kept.append(d)
                continue
            }
            let n = seen[d.code, default: 0]
            seen[d.code] = n + 1
            if n < limit {
                kept.append(d)
            } else if let i = droppedIndex[d.code] {
                dropped[i].count += 1
            } else {
                droppedIndex[d.code] = dropped.count
                dropped.append((d.code, 1, d.severity))
            }
        }
        return (kept, dropped)
    }

    /// The note for what ``perRule(_:limit:)`` dropped, nil when nothing.
    /// - Parameters:
    ///   - dropped: per code, the findings the terminal leaves out, counting those over the bag's cap.
    ///   - capped: whether any code went over the bag's per-rule cap (``DiagnosticBag/maxPerCode``): the reports
    ///     then list the first `cap` of such a rule and count the rest.
    package static func perRuleNote(
        _ dropped: [(code: String, count: Int, severity: Severity)], limit: Int, capped: Bool = false, cap: Int = 0
    ) -> String? {
        guard !dropped.isEmpty else { return nil }
        let parts = dropped.map { d in
            let kind = d.severity == .error ? "error" : d.severity == .warning ? "warning" : "info"
            return "\(d.count) more \(d.code) \(kind)\(d.count == 1 ? "" : "s")"
        }
        let shown = limit > 0 ? "the first \(limit) of each rule are; --max-per-rule 0 shows all" : "over the per-rule cap"
        let reports = capped
            ? "report.html and report.json list the first \(cap) of each rule and count the rest (--write-baseline keeps every one)"
            : "report.html and report.json list every one"
        return "not shown: \(parts.joined(separator: ", ")) (\(shown)); \(reports)"
    }

    /// ``perRule(_:limit:)``'s dropped findings plus those the bag only counted (over its cap), per code in order.
    package static func withOmitted(
        _ dropped: [(code: String, count: Int, severity: Severity)], _ report: DiagnosticReport
    ) -> [(code: String, count: Int, severity: Severity)] {
        var out = dropped
        for (code, count) in report.omitted.sorted(by: { $0.key < $1.key }) where count > 0 {
            if let i = out.firstIndex(where: { $0.code == code }) {
                out[i].count += count
            } else {
                let severity = report.diagnostics.first { $0.code == code }?.severity ?? .warning
                out.append((code, count, severity))
            }
        }
        return out
    }

    /// The prefix of `diagnostics` that `limits` allows, and a note saying what was left out (nil when nothing).
    package static func limited(_ diagnostics: [Diagnostic], _ limits: Limits) -> ([Diagnostic], String?) {
        var shown: [Diagnostic] = []
        var errors = 0
        var reason = ""
        for d in diagnostics {
            if shown.count >= limits.maxDiagnostics { reason = "--max-diagnostics \(limits.maxDiagnostics)"; break }
            if limits.maxErrors > 0 && errors >= limits.maxErrors {
                reason = "--max-errors \(limits.maxErrors)"
                break
            }
            shown.append(d)
            if d.severity == .error { errors += 1 }
        }
        guard shown.count < diagnostics.count else { return (shown, nil) }
        let rest = diagnostics[shown.count...]
        let e = rest.filter { $0.severity == .error }.count
        let w = rest.filter { $0.severity == .warning }.count
        let o = rest.count - e - w
        var parts: [String] = []
        if e > 0 { parts.append("\(e) more error\(e == 1 ? "" : "s")") }
        if w > 0 { parts.append("\(w) more warning\(w == 1 ? "" : "s")") }
        if o > 0 { parts.append("\(o) more info\(o == 1 ? "" : "s")") }
        return (shown, "\(parts.joined(separator: ", ")) not shown (\(reason)); the report file lists them all")
    }

    // MARK: Human

    /// Clang-style text: `path:line:col: error: message [code]`, the source line with a caret, `note:` lines
    /// (each with its own snippet), a note when limits cut the list. The summary line is printed by the caller.
    /// - Parameters:
    ///   - colour: ANSI colours (only on a terminal, never with `NO_COLOR`).
    ///   - sources: reads source lines; nil prints no snippets.
    package static func human(_ report: DiagnosticReport, limits: Limits, colour: Bool, sources: SourceText?) -> String {
        let (sampled, dropped) = perRule(report.diagnostics, limit: limits.maxPerRule)
        let (shown, cut) = limited(sampled, limits)
        if let sources {
            var wanted: [String: Set<Int>] = [:]
            for d in shown {
                for loc in [d.location] + d.notes.map(\.location) {
                    if let loc, loc.line > 0 { wanted[loc.file, default: []].insert(loc.line) }
                }
            }
            sources.load(wanted)
        }
        let style = Style(colour: colour)
        var out = ""
        for d in shown {
            out += header(d.location, severity: d.severity, message: d.message + " " + style.dim("[\(d.code)]"), style)
            out += snippet(d.location, sources, style)
            for note in d.notes {
                let location = note.location ?? d.location
                out += header(location, severity: .note, message: note.message, style)
                if note.location != nil { out += snippet(location, sources, style) }
            }
        }
        if let cut { out += style.bold("citypack: ") + style.severity(.note) + ": " + cut + "\n" }
        if let note = perRuleNote(withOmitted(dropped, report), limit: limits.maxPerRule, capped: !report.omitted.isEmpty, cap: report.perRuleCap) {
            out += style.bold("citypack: ") + style.severity(.note) + ": " + note + "\n"
        }
        return out
    }

    /// Plain list of diagnostics with snippets (for commands without a report, such as `init`).
    package static func human(_ diagnostics: [Diagnostic], limit: Int, colour: Bool) -> String {
        var report = DiagnosticReport(command: "init", city: nil, root: ".", bag: DiagnosticBag())
        report.diagnostics = diagnostics
        return human(report, limits: Limits(maxDiagnostics: limit), colour: colour, sources: SourceText())
    }

    private static func header(_ location: SourceLocation?, severity: Severity, message: String, _ style: Style) -> String {
        let prefix = location.map { $0.description + ": " } ?? "citypack: "
        return style.bold(prefix) + style.severity(severity) + ": " + message + "\n"
    }

    private static func snippet(_ location: SourceLocation?, _ sources: SourceText?, _ style: Style) -> String {
        guard let location, location.line > 0, let bytes = sources?.line(location.line, of: location.file) else { return "" }
        let csv = location.field != nil && (location.file.hasSuffix(".txt") || location.file.hasSuffix(".csv"))
        let (text, marker) = SourceSnippet.render(line: bytes, column: location.column, underlineCSVField: csv)
        let number = String(location.line)
        let gutter = String(repeating: " ", count: number.count)
        var out = " \(number) | \(text)\n"
        if !marker.isEmpty { out += " \(gutter) | \(style.caret(marker))\n" }
        return out
    }

    /// ANSI styling, or plain text when colour is off.
    package struct Style {
        package var colour: Bool
        package func wrap(_ code: String, _ text: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        package func bold(_ text: String) -> String { wrap("1", text) }
        package func dim(_ text: String) -> String { wrap("2", text) }
        package func caret(_ text: String) -> String { wrap("1;32", text) }
        package func severity(_ s: Severity) -> String {
            switch s {
            case .error: wrap("1;31", s.rawValue)
            case .warning: wrap("1;35", s.rawValue)
            case .info: wrap("1;36", s.rawValue)
            case .note: wrap("1;90", s.rawValue)
            }
        }
    }

    // MARK: JSON

    /// The JSON report (schema version 1, docs/DIAGNOSTICS.md); also what `report.json` holds.
    package static func json(_ report: DiagnosticReport, toolVersion: String) -> String {
        encode(JSONReport(report, toolVersion: toolVersion))
    }

    /// Schema of `--format json` and `report.json`. Keys are sorted; absent optionals are omitted.
    package struct JSONReport: Codable, Equatable {
        package static let schemaVersion = 1

        package struct Location: Codable, Equatable {
            package var file: String
            package var line: Int?
            package var column: Int?
            package var field: String?
            package init(_ l: SourceLocation) {
                file = l.file
                line = l.line > 0 ? l.line : nil
                column = l.column > 0 ? l.column : nil
                field = l.field
            }
        }
        package struct Note: Codable, Equatable {
            package var message: String
            package var location: Location?
        }
        package struct Item: Codable, Equatable {
            package var severity: String
            package var code: String
            package var message: String
            package var location: Location?
            package var entity: String?
            package var fingerprint: String
            package var notes: [Note]
        }
        package struct Summary: Codable, Equatable {
            package var errors: Int
            package var warnings: Int
            package var infos: Int
            package var files: Int
            package var omitted: [String: Int]
            package var baselined: Int
        }
        package struct BaselineOutcome: Codable, Equatable {
            package var file: String
            package var silenced: Int
            package var fixed: [Baseline.Entry]
        }
        package struct Tool: Codable, Equatable {
            package var name: String
            package var version: String
        }

        package var version: Int
        package var tool: Tool
        package var command: String
        package var city: String?
        package var diagnostics: [Item]
        package var summary: Summary
        package var baseline: BaselineOutcome?
        /// Untranslated copy strings: locale → key → locale whose text apps show instead.
        package var copyFallbacks: [String: [String: String]]?

        package init(_ r: DiagnosticReport, toolVersion: String) {
            version = Self.schemaVersion
            tool = Tool(name: "citypack", version: toolVersion)
            command = r.command
            city = r.city
            diagnostics = r.diagnostics.map { d in
                Item(
                    severity: d.severity.rawValue, code: d.code, message: d.message, location: d.location.map(Location.init),
                    entity: d.entity, fingerprint: d.fingerprint(root: r.root),
                    notes: d.notes.map { Note(message: $0.message, location: $0.location.map(Location.init)) })
            }
            summary = Summary(
                errors: r.errors, warnings: r.warnings, infos: r.infos, files: r.files, omitted: r.omitted, baselined: r.baselined)
            baseline = r.baselineFile.map { BaselineOutcome(file: $0, silenced: r.baselined, fixed: r.fixed) }
            copyFallbacks = r.copyFallbacks
        }
    }

    // MARK: GitHub

    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, notes appended to the
    /// message on their own lines. GitHub shows only the first annotations of a step, so the full report is
    /// always written to the output folder as well.
    package static func github(_ report: DiagnosticReport, limits: Limits) -> String {
        func escapeData(_ s: String) -> String {
            s.escapingScalars(["%": "%25", "\r": "%0D", "\n": "%0A"])
        }
        func escapeProperty(_ s: String) -> String {
            s.escapingScalars(["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
        }
        let (shown, cut) = limited(report.diagnostics, limits)
        var out = ""
        for d in shown {
            let command: String
            switch d.severity {
            case .error: command = "error"
            case .warning: command = "warning"
            case .info, .note: command = "notice"
            }
            var props: [String] = []
            if let loc = d.location {
                props.append("file=\(escapeProperty(loc.file))")
                if loc.line > 0 { props.append("line=\(loc.line)") }
                if loc.column > 0 { props.append("col=\(loc.column)") }
            }
            props.append("title=\(escapeProperty(d.code))")
            var message = d.message
            for note in d.notes {
                message += "\nnote: \(note.message)" + (note.location.map { " (\($0.description))" } ?? "")
            }
            out += "::\(command) \(props.joined(separator: ","))::\(escapeData(message))\n"
        }
        if let cut { out += "::notice title=citypack::\(escapeData(cut))\n" }
        return out
    }

    // MARK: SARIF

    /// The base id SARIF locations are relative to: the directory `citypack` ran in (the repository root in CI).
    package static let sarifBaseID = "SRCROOT"
    package static let sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    package static let informationURI = "https://github.com/citypack/citypack#rules"

    /// SARIF 2.1.0: every catalogued rule as a reporting descriptor, one result per diagnostic with its
    /// physical location (relative to `%SRCROOT%`), notes as related locations, and a partial fingerprint
    /// (code + file + entity, never the line) so code-scanning keeps identity across edits.
    package static func sarif(_ report: DiagnosticReport, toolVersion: String, succeeded: Bool = true) -> String {
        var ruleIndex: [String: Int] = [:]
        var rules: [[String: Any]] = []
        for (i, rule) in RuleCatalog.all.enumerated() {
            ruleIndex[rule.code] = i
            rules.append([
                "id": rule.code,
                "name": sarifName(rule.code),
                "shortDescription": ["text": rule.summary],
                "fullDescription": ["text": rule.rationale],
                "help": [
                    "text": "\(rule.summary). \(rule.rationale) Run `citypack rules \(rule.code)` for an example.",
                    "markdown": "**\(rule.summary).** \(rule.rationale)\n\nRun `citypack rules \(rule.code)` for an example.",
                ],
                "helpUri": informationURI,
                "defaultConfiguration": ["level": sarifLevel(rule.severity), "enabled": true],
                "properties": ["tags": [rule.kind.rawValue], "category": rule.kind.rawValue],
            ])
        }
        // Artifacts: every file a result or related location names, in sorted order.
        var files = Set<String>()
        for d in report.diagnostics {
            if let f = d.location?.file { files.insert(f) }
            for n in d.notes { if let f = n.location?.file { files.insert(f) } }
        }
        let artifactList = files.sorted()
        let artifactIndex = Dictionary(uniqueKeysWithValues: artifactList.enumerated().map { ($1, $0) })
        func artifactLocation(_ file: String) -> [String: Any] {
            var location = uriLocation(file)
            if let i = artifactIndex[file] { location["index"] = i }
            return location
        }
        func physical(_ loc: SourceLocation) -> [String: Any] {
            var physical: [String: Any] = ["artifactLocation": artifactLocation(loc.file)]
            var region: [String: Any] = [:]
            if loc.line > 0 { region["startLine"] = loc.line }
            if loc.line > 0 && loc.column > 0 { region["startColumn"] = loc.column }
            if !region.isEmpty { physical["region"] = region }
            return physical
        }
        var results: [[String: Any]] = []
        for d in report.diagnostics {
            var result: [String: Any] = [
                "ruleId": d.code,
                "level": sarifLevel(d.severity),
                "kind": "fail",
                "message": ["text": d.message],
                "partialFingerprints": [Diagnostic.fingerprintVersion: d.fingerprint(root: report.root)],
            ]
            if let i = ruleIndex[d.code] { result["ruleIndex"] = i }
            if let loc = d.location {
                var location: [String: Any] = ["physicalLocation": physical(loc)]
                if let entity = d.entity { location["logicalLocations"] = [["name": entity, "kind": "element"]] }
                result["locations"] = [location]
            }
            if !d.notes.isEmpty {
                result["relatedLocations"] = d.notes.enumerated().map { i, note -> [String: Any] in
                    var entry: [String: Any] = ["id": i + 1, "message": ["text": note.message]]
                    if let loc = note.location { entry["physicalLocation"] = physical(loc) }
                    return entry
                }
            }
            results.append(result)
        }
        let run: [String: Any] = [
            "tool": [
                "driver": [
                    "name": "citypack", "version": toolVersion, "semanticVersion": toolVersion,
                    "informationUri": informationURI, "rules": rules,
                ]
            ],
            "artifacts": artifactList.map { ["location": uriLocation($0)] },
            "invocations": [["executionSuccessful": succeeded]],
            "columnKind": "unicodeCodePoints",
            "results": results,
        ]
        let log: [String: Any] = ["$schema": sarifSchema, "version": "2.1.0", "runs": [run]]
        let data = (try? JSONSerialization.data(withJSONObject: log, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return (String(data: data, encoding: .utf8) ?? "{}") + "\n"
    }

    /// A relative path becomes a relative URI under `%SRCROOT%`; an absolute one a `file://` URI.
    package static func uriLocation(_ file: String) -> [String: Any] {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        let encoded = file.addingPercentEncoding(withAllowedCharacters: allowed) ?? file
        if file.hasPrefix("/") { return ["uri": "file://" + encoded] }
        let relative = encoded.hasPrefix("./") ? String(encoded.dropFirst(2)) : encoded
        return ["uri": relative, "uriBaseId": sarifBaseID]
    }

    /// `gtfs.arrival_before_previous_departure` → `GtfsArrivalBeforePreviousDeparture` (SARIF's rule `name`).
    package static func sarifName(_ code: String) -> String {
        code.split(whereSeparator: { $0 == "." || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    package static func sarifLevel(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .info, .note: "note"
        }
    }

    package static func encode<T: Encodable>(_ value: T) -> String {
        (SortedJSON.text(value, pretty: true) ?? "{}") + "\n"
    }
}
