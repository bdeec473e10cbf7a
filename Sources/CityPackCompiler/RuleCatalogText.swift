import CityPackValidate
import CityPackDiagnostics
import CityPackSupport
import Foundation

/// Renders the rule catalogue: the terminal listing, the JSON data, README's table and docs/RULES.md.
/// Everything here is derived from ``RuleDescription`` values, so the documents cannot drift from the rules.
///
/// `exampleCity` is where the example city the examples are overlaid on lives, as the output should name it;
/// the caller knows it (docs/RULES.md is generated with the repository's path), the binary does not. Without it
/// the texts speak of "the example city" and the JSON's `example_city` is null.
package enum RuleCatalogText {
    /// Version of the `citypack rules --format json` document; bumped only on incompatible changes.
    package static let jsonVersion = 1

    // MARK: human

    package static func human(_ rules: [RuleDescription], withExamples: Bool, exampleCity: String? = nil) -> String {
        let city = exampleCity.map { "\($0)/" } ?? "the example city"
        var text = ""
        for (i, r) in rules.enumerated() {
            if i > 0 { text += "\n" }
            text += "\(r.code)  \(r.title)  [\(r.severity.rawValue)]\n"
            text += "  \(r.summary)\n"
            text += "  why: \(r.rationale)\n"
            guard withExamples else { continue }
            if let e = r.example {
                text += "\n  example, applied to \(city) and checked as of \(RuleExample.checkDate):\n"
                text += "  triggers: \(e.file)\n" + block(e.triggering, indent: "    | ")
                text += "  passes: \(e.file)\n" + block(e.passing, indent: "    | ")
            } else if let waiver = r.exampleWaiver {
                text += "  no example: \(waiver)\n"
            }
        }
        return text
    }

    /// File contents as indented lines, or a note that the file is absent.
    private static func block(_ contents: String?, indent: String) -> String {
        guard let contents else { return indent + "(file absent)\n" }
        if contents.isEmpty { return indent + "(empty file)\n" }
        var lines = visible(contents).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.map { indent + $0 + "\n" }.joined()
    }

    /// Text with characters that would be invisible or would break a terminal or Markdown shown as markers:
    /// `␀` for NUL, `␍␊` before the line break of a CRLF line end, `␍` before a line break for a bare CR,
    /// `⟨U+XXXX⟩` for other control, format and separator characters.
    package static func visible(_ text: String) -> String {
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar.value == 0x0D, pending?.value == 0x0A {
                out += "␍␊\n"
                pending = scalars.next()
                continue
            }
            switch scalar.value {
            case 0x0A, 0x09: out.unicodeScalars.append(scalar)
            case 0x00: out += "␀"
            case 0x0D: out += "␍\n"
            case 0x01...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028, 0x2029, 0xFEFF:
                out += "⟨U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "⟩"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: JSON

    /// `citypack rules --format json`: `{version, example_city, example_check_date, rules: [...],
    /// gtfs_validator_parity: {source, notices: [...]}}`; every key is always present (null when absent), keys
    /// sorted, so the output is stable and diffable. The parity part is the whole ``GTFSValidatorParity`` mapping,
    /// whichever rules are listed.
    package static func json(_ rules: [RuleDescription], exampleCity: String? = nil) -> String {
        let document = Document(
            version: jsonVersion, exampleCity: exampleCity, exampleCheckDate: RuleExample.checkDate,
            rules: rules.map(Entry.init), parity: Parity())
        return (SortedJSON.text(document, pretty: true) ?? "{}") + "\n"
    }

    private struct Document: Encodable {
        var version: Int
        var exampleCity: String?
        var exampleCheckDate: String
        var rules: [Entry]
        var parity: Parity
        enum CodingKeys: String, CodingKey {
            case version, rules
            case exampleCity = "example_city"
            case exampleCheckDate = "example_check_date"
            case parity = "gtfs_validator_parity"
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(version, forKey: .version)
            try c.encode(exampleCity, forKey: .exampleCity)
            try c.encode(exampleCheckDate, forKey: .exampleCheckDate)
            try c.encode(rules, forKey: .rules)
            try c.encode(parity, forKey: .parity)
        }
    }

    /// `gtfs_validator_parity`: `{source, notices: [{code, severity, deprecated, status, citypack, note, planned}]}`,
    /// notices ERROR first, then WARNING and INFO, each in code order.
    private struct Parity: Encodable {
        enum Keys: String, CodingKey { case source, notices }
        enum NoticeKeys: String, CodingKey { case code, severity, deprecated, status, citypack, note, planned }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(GTFSValidatorParity.source, forKey: .source)
            var list = c.nestedUnkeyedContainer(forKey: .notices)
            for severity in GTFSValidatorParity.Severity.allCases {
                for n in GTFSValidatorParity.notices(severity) {
                    var e = list.nestedContainer(keyedBy: NoticeKeys.self)
                    try e.encode(n.code, forKey: .code)
                    try e.encode(n.severity.rawValue, forKey: .severity)
                    try e.encode(n.deprecated, forKey: .deprecated)
                    try e.encode(n.status.rawValue, forKey: .status)
                    try e.encode(n.citypack, forKey: .citypack)
                    try e.encode(n.note.isEmpty ? nil : n.note, forKey: .note)
                    try e.encode(n.planned, forKey: .planned)
                }
            }
        }
    }

    private struct Entry: Encodable {
        var rule: RuleDescription
        init(_ rule: RuleDescription) { self.rule = rule }
        enum Keys: String, CodingKey {
            case code, title, kind, severity, summary, rationale, example
            case exampleWaiver = "example_waiver"
        }
        enum ExampleKeys: String, CodingKey { case file, triggering, passing }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(rule.code, forKey: .code)
            try c.encode(rule.title, forKey: .title)
            try c.encode(rule.kind.rawValue, forKey: .kind)
            try c.encode(rule.severity.rawValue, forKey: .severity)
            try c.encode(rule.summary, forKey: .summary)
            try c.encode(rule.rationale, forKey: .rationale)
            try c.encode(rule.exampleWaiver, forKey: .exampleWaiver)
            if let e = rule.example {
                var ec = c.nestedContainer(keyedBy: ExampleKeys.self, forKey: .example)
                try ec.encode(e.file, forKey: .file)
                try ec.encode(e.triggering, forKey: .triggering)
                try ec.encode(e.passing, forKey: .passing)
            } else {
                try c.encodeNil(forKey: .example)
            }
        }
    }

    // MARK: Markdown

    /// README's rule table: code, title, severity, meaning.
    package static func markdownTable(_ rules: [RuleDescription]) -> String {
        var text = "| code | title | severity | meaning |\n|---|---|---|---|\n"
        for r in rules {
            text += "| [`\(r.code)`](docs/RULES.md#\(anchor(r.code))) | \(cell(r.title)) | \(r.severity.rawValue) | \(cell(r.summary)) |\n"
        }
        return text
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    /// The GitHub heading anchor of a rule's section in docs/RULES.md (the heading is the bare code).
    package static func anchor(_ code: String) -> String {
        code.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// docs/RULES.md: every rule with its meaning, rationale and runnable example, grouped by kind.
    package static func reference(_ rules: [RuleDescription], exampleCity: String? = nil) -> String {
        let city = exampleCity.map { "the example city in `\($0)/`" } ?? "the example city"
        var text = """
            # Rule reference

            <!-- Generated by `citypack rules --format docs --example-city Tests/Fixtures/rule-examples/base` from the rule \
            catalogue (Sources/CityPackCompiler/RuleCatalog.swift: model rules in Sources/CityPackValidate/Rules/, \
            reading-time rules next to their readers in Sources/CityPackIngest); \
            do not edit. A test fails when this file is stale. -->

            Every rule CityPack reports, with its stable code, default severity, meaning and rationale. Severities can be \
            changed per city (`rules: { CODE: error|warning|info|off }` in `city.yaml`) and warnings made errors with `--werror`.

            Most rules have a runnable example: the whole contents of one input file of \
            \(city) (a small valid city: a few POIs in `map.osm`, a one-route GTFS feed in `gtfs/`) that \
            makes the rule fire, and a close variant that does not. `Tests/CityPackCLITests/RuleExampleTests.swift` \
            overlays each on the example city, runs the check as of \(RuleExample.checkDate) (the build date that \
            calendar rules compare with) and requires the rule for the first and its absence, with no error at all, for \
            the second. Rules that no text file can show name the test that covers them instead. In examples, `␀` stands \
            for a NUL byte, a line ending in `␍␊` for a CRLF line end, one ending in `␍` alone for a bare carriage \
            return, and `⟨U+XXXX⟩` for an invisible character.

            `citypack rules --format json` gives the same catalogue as data: `{"version": \(jsonVersion), "example_city", \
            "example_check_date", "rules": [{"code", "title", "kind", "severity", "summary", "rationale", "example": \
            {"file", "triggering", "passing"} | null, "example_waiver": string | null}], "gtfs_validator_parity": \
            {"source", "notices": [{"code", "severity", "deprecated", "status", "citypack", "note", "planned"}]}}`; a \
            null `triggering` or `passing` means the variant is the city without that file. The last section, \
            [gtfs-validator parity](#gtfs-validator-parity), maps every gtfs-validator notice to the rules that cover it.


            """
        for kind in RuleKind.allCases {
            let group = rules.filter { $0.kind == kind }
            if group.isEmpty { continue }
            text += "## \(kindTitle(kind))\n\n"
            for r in group {
                text += "### \(r.code)\n\n"
                text += "**\(r.title)** · \(r.severity.rawValue)\n\n"
                text += "\(r.summary).\n\n"
                text += "*Why:* \(r.rationale)\n\n"
                if let e = r.example {
                    text += "Triggers, `\(e.file)`:\n\n" + fenced(e.triggering, file: e.file)
                    text += "Passes, `\(e.file)`:\n\n" + fenced(e.passing, file: e.file)
                } else if let waiver = r.exampleWaiver {
                    text += "*No example:* \(waiver)\n\n"
                }
            }
        }
        return text + parityReference()
    }

    /// docs/RULES.md's last section: every gtfs-validator notice (``GTFSValidatorParity``) with the rules that
    /// cover it or why it does not apply, grouped by severity, ERROR first.
    static func parityReference() -> String {
        typealias P = GTFSValidatorParity
        let label: [P.Status: String] = [
            .covered: "covered", .partlyCovered: "partly covered", .notApplicable: "does not apply",
            .notYetCovered: "not yet covered",
        ]
        var text = """
            ## gtfs-validator parity

            Every notice of gtfs-validator, MobilityData's reference validator (listed by \(P.source)), and CityPack's \
            answer: the rules that report the same problem (**covered**; the note says where CityPack differs on \
            purpose), the part they report (**partly covered**; the note says what is missing), why the notice \
            **does not apply** to an offline pack, or **not yet covered**: CityPack reads the data and no rule checks \
            it yet (the note says what a rule would need). A pack carries stops, routes, services, trips, departures \
            and frequencies; a notice about other data does not apply when no rule reads that data beyond its syntax, \
            keys, references and value types (the reason says what CityPack does with it). `scripts/gtfs-parity.py \
            FEED…` runs both validators on feeds and prints their findings side by side.


            """
        text += "| severity | notices | covered | partly covered | does not apply | not yet covered |\n"
        text += "|---|---|---|---|---|---|\n"
        for severity in P.Severity.allCases {
            let group = P.notices(severity)
            let counts = P.Status.allCases.map { s in group.filter { $0.status == s }.count }
            text += "| \(severity.rawValue) | \(group.count) | " + counts.map(String.init).joined(separator: " | ") + " |\n"
        }
        text += "\n"
        for severity in P.Severity.allCases {
            let group = P.notices(severity)
            text += "### \(severity.rawValue) notices\n\n| notice | CityPack | rules | note |\n|---|---|---|---|\n"
            for n in group {
                let rules = n.citypack.map { "[`\($0)`](#\(anchor($0)))" }.joined(separator: ", ")
                var note = n.note
                if let planned = n.planned { note += " (`\(planned)` is being added)" }
                if n.deprecated { note = "deprecated in gtfs-validator. " + note }
                text += "| `\(n.code)` | \(label[n.status]!) | \(rules) | \(cell(note)) |\n"
            }
            text += "\n"
        }
        return text
    }

    private static func kindTitle(_ kind: RuleKind) -> String {
        switch kind {
        case .city: "City file (`city.*`)"
        case .osm: "OpenStreetMap (`osm.*`)"
        case .csv: "CSV syntax (`csv.*`)"
        case .gtfs: "GTFS (`gtfs.*`)"
        case .editorial: "Editorial content (`editorial.*`)"
        case .copy: "Copy and translations (`copy.*`)"
        case .pack: "Pack (`pack.*`)"
        }
    }

    private static func fenced(_ contents: String?, file: String) -> String {
        guard let contents else { return "*(the file is absent)*\n\n" }
        if contents.isEmpty { return "*(an empty file)*\n\n" }
        let language = file.hasSuffix(".osm") ? "xml" : file.hasSuffix(".yaml") ? "yaml" : "csv"
        var body = visible(contents)
        if !body.hasSuffix("\n") { body += "\n" }
        return "```\(language)\n\(body)```\n\n"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
