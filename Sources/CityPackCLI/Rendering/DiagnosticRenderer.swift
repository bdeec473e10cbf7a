import CityPackDiagnostics
import Foundation

/// Renders diagnostics for people and machines. Only the CLI renders; libraries report into a bag.
enum DiagnosticRenderer {
    /// `path:line:col: error[code]: message` lines with notes, as compilers print them.
    static func human(_ diagnostics: [Diagnostic], limit: Int, colour: Bool) -> String {
        var out = ""
        for d in diagnostics.prefix(limit) {
            out += line(d.location, label(d.severity, colour: colour) + "[\(d.code)]", d.message, colour: colour)
            for note in d.notes {
                out += line(note.location ?? d.location, label(.note, colour: colour), note.message, colour: colour)
            }
        }
        if diagnostics.count > limit {
            out += "citypack: note: \(diagnostics.count - limit) more diagnostics not shown (--max-diagnostics)\n"
        }
        return out
    }

    private static func line(_ location: SourceLocation?, _ label: String, _ message: String, colour: Bool) -> String {
        let prefix = location.map { $0.description + ": " } ?? "citypack: "
        let bold = colour ? "\u{1B}[1m" : ""
        let reset = colour ? "\u{1B}[0m" : ""
        return "\(bold)\(prefix)\(reset)\(label): \(message)\n"
    }

    private static func label(_ severity: Severity, colour: Bool) -> String {
        guard colour else { return severity.rawValue }
        let code: String
        switch severity {
        case .error: code = "31"
        case .warning: code = "35"
        case .info: code = "36"
        case .note: code = "90"
        }
        return "\u{1B}[1;\(code)m\(severity.rawValue)\u{1B}[0m"
    }

    /// `N errors, M warnings` summary.
    static func summary(errors: Int, warnings: Int, infos: Int, suppressed: [String: Int]) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var text = "\(plural(errors, "error")), \(plural(warnings, "warning"))"
        if infos > 0 { text += ", \(infos) info" }
        let dropped = suppressed.values.reduce(0, +)
        if dropped > 0 { text += " (\(dropped) beyond the per-rule limit not listed)" }
        return text
    }

    /// JSON: `{"diagnostics": [...], "summary": {...}}` with sorted keys.
    static func json(_ diagnostics: [Diagnostic], errors: Int, warnings: Int) -> String {
        struct Output: Encodable {
            var diagnostics: [Diagnostic]
            var summary: [String: Int]
        }
        return encode(Output(diagnostics: diagnostics, summary: ["errors": errors, "warnings": warnings]))
    }

    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`).
    static func github(_ diagnostics: [Diagnostic]) -> String {
        func escapeData(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func escapeProperty(_ s: String) -> String {
            escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        var out = ""
        for d in diagnostics {
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
            out += "::\(command) \(props.joined(separator: ","))::\(escapeData(d.message))\n"
        }
        return out
    }

    /// SARIF 2.1.0 with every catalogued rule and one result per diagnostic.
    static func sarif(_ diagnostics: [Diagnostic], toolVersion: String) -> String {
        var ruleIndex: [String: Int] = [:]
        var rules: [[String: Any]] = []
        for (i, rule) in RuleCatalog.all.enumerated() {
            ruleIndex[rule.code] = i
            rules.append([
                "id": rule.code,
                "shortDescription": ["text": rule.summary],
                "fullDescription": ["text": rule.rationale],
                "defaultConfiguration": ["level": sarifLevel(rule.severity)],
            ])
        }
        var results: [[String: Any]] = []
        for d in diagnostics {
            var result: [String: Any] = [
                "ruleId": d.code,
                "level": sarifLevel(d.severity),
                "message": ["text": d.message],
            ]
            if let i = ruleIndex[d.code] { result["ruleIndex"] = i }
            if let loc = d.location {
                var region: [String: Any] = [:]
                if loc.line > 0 { region["startLine"] = loc.line }
                if loc.column > 0 { region["startColumn"] = loc.column }
                var physical: [String: Any] = ["artifactLocation": ["uri": loc.file]]
                if !region.isEmpty { physical["region"] = region }
                result["locations"] = [["physicalLocation": physical]]
            }
            // Fingerprint on rule + entity (never on line numbers) so moves in the file keep identity.
            result["partialFingerprints"] = ["citypack/v1": "\(d.code):\(d.entity ?? d.location?.file ?? "")"]
            if !d.notes.isEmpty {
                result["relatedLocations"] = d.notes.enumerated().map { i, note -> [String: Any] in
                    var entry: [String: Any] = ["id": i, "message": ["text": note.message]]
                    if let loc = note.location {
                        entry["physicalLocation"] = [
                            "artifactLocation": ["uri": loc.file],
                            "region": ["startLine": max(loc.line, 1), "startColumn": max(loc.column, 1)],
                        ]
                    }
                    return entry
                }
            }
            results.append(result)
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "citypack", "version": toolVersion,
                            "informationUri": "https://example.invalid/citypack", "rules": rules,
                        ]
                    ],
                    "results": results,
                ]
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: log, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return (String(data: data, encoding: .utf8) ?? "{}") + "\n"
    }

    static func sarifLevel(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .info, .note: "note"
        }
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "{}\n" }
        return text + "\n"
    }
}
