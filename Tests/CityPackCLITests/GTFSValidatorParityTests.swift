import CityPackCompiler
import CityPackValidate
import CityPackTestSupport
import Foundation
import Testing

/// The gtfs-validator parity mapping (``GTFSValidatorParity``): complete against gtfs-guru's notice list, naming
/// only rules that exist, leaving no ERROR notice uncovered; and `scripts/gtfs-parity.py`, which sets both tools'
/// findings side by side.
@Suite struct GTFSValidatorParityTests {
    /// gtfs-guru's notice list (`gtfs_guru.notice_schema()`): code → (severity, deprecated), read with Debian's
    /// python3 from `.deps/gtfs-guru` (where `scripts/install-deps.sh --tests` installs it) or the Python path;
    /// nil when gtfs-guru is absent.
    static let schema: [String: (severity: String, deprecated: Bool)]? = {
        guard let python = OutsideTools.python3.path else { return nil }
        let script = """
            import json, sys, gtfs_guru
            s = gtfs_guru.notice_schema()
            json.dump({k: [v["severityLevel"], bool(v.get("deprecated", False))] for k, v in s.items()}, sys.stdout)
            """
        let deps = TestPaths.root.appendingPathComponent(".deps/gtfs-guru").path
        guard let r = try? ProcessRun.run(URL(fileURLWithPath: python), ["-c", script],
            environment: ["PYTHONPATH": deps], cwd: TestPaths.root), r.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [Any]]
        else { return nil }
        return object.compactMapValues { v in
            guard let severity = v.first as? String, let deprecated = v.last as? Bool else { return nil }
            return (severity, deprecated)
        }
    }()

    @Test(.needsGTFSGuru) func everyNoticeOfGTFSGuruIsMapped() throws {
        let schema = try #require(Self.schema)
        let mapped = GTFSValidatorParity.all.map(\.code)
        #expect(Set(mapped).count == mapped.count, "a notice is mapped twice")
        let missing = Set(schema.keys).subtracting(mapped).sorted()
        let unknown = Set(mapped).subtracting(schema.keys).sorted()
        #expect(missing.isEmpty, "notices of gtfs-guru missing from the mapping: \(missing)")
        #expect(unknown.isEmpty, "mapped notices gtfs-guru does not know: \(unknown)")
        for notice in GTFSValidatorParity.all {
            guard let expected = schema[notice.code] else { continue }
            #expect(notice.severity.rawValue == expected.severity, "\(notice.code)")
            #expect(notice.deprecated == expected.deprecated, "\(notice.code)")
        }
    }

    @Test func everyNamedRuleExists() {
        for notice in GTFSValidatorParity.all {
            let unknown = notice.citypack.filter { !RuleCatalog.codes.contains($0) }
            #expect(unknown.isEmpty, "\(notice.code) names rules the catalogue lacks: \(unknown)")
            switch notice.status {
            case .covered, .partlyCovered:
                #expect(!notice.citypack.isEmpty, "\(notice.code) is \(notice.status) by no rule")
            case .notApplicable, .notYetCovered:
                #expect(notice.citypack.isEmpty && !notice.note.isEmpty, "\(notice.code): a reason, and no rules")
            }
            if notice.status == .partlyCovered { #expect(!notice.note.isEmpty, "\(notice.code): what is missing") }
            if let planned = notice.planned {
                #expect(notice.status == .notYetCovered, "\(notice.code): planned only while not yet covered")
                #expect(!RuleCatalog.codes.contains(planned), "\(planned) exists now: map \(notice.code) to it as covered")
            }
            #expect(!notice.note.contains("\n") && !notice.note.contains("|"), "\(notice.code): one table cell")
        }
    }

    /// Issue 21 point 1: every non-deprecated ERROR notice is covered (partly or wholly) or does not apply.
    @Test func everyErrorNoticeIsCoveredOrDoesNotApply() {
        let gaps = GTFSValidatorParity.notices(.error).filter { !$0.deprecated && $0.status == .notYetCovered }
        #expect(gaps.isEmpty, "ERROR notices not yet covered: \(gaps.map(\.code).sorted())")
    }

    @Test func jsonAndDocsCarryTheMapping() throws {
        let r = try CLIRunner.run(["rules", "--format", "json"])
        let parity = try #require(try CLIRunner.json(r.stdout)["gtfs_validator_parity"] as? [String: Any])
        #expect(parity["source"] as? String == GTFSValidatorParity.source)
        let notices = try #require(parity["notices"] as? [[String: Any]])
        #expect(notices.count == GTFSValidatorParity.all.count)
        let severities = notices.compactMap { $0["severity"] as? String }
        #expect(severities == severities.sorted { ["ERROR", "WARNING", "INFO"].firstIndex(of: $0)! < ["ERROR", "WARNING", "INFO"].firstIndex(of: $1)! })
        for entry in notices {
            #expect(Set(entry.keys) == ["code", "severity", "deprecated", "status", "citypack", "note", "planned"])
            let code = try #require(entry["code"] as? String)
            let notice = try #require(GTFSValidatorParity.byCode[code])
            #expect(entry["status"] as? String == notice.status.rawValue)
            #expect(entry["citypack"] as? [String] == notice.citypack)
        }
        let docs = try CLIRunner.run(["rules", "--format", "docs"]).stdout
        let section = try #require(docs.range(of: "\n## gtfs-validator parity\n")).upperBound
        for notice in GTFSValidatorParity.all {
            #expect(docs[section...].contains("| `\(notice.code)` | "), "\(notice.code) missing from docs/RULES.md")
        }
        let errors = try #require(docs.range(of: "### ERROR notices")).lowerBound
        let warnings = try #require(docs.range(of: "### WARNING notices")).lowerBound
        #expect(errors < warnings)
    }

    /// The script on the spec's sample feed (13 short rows in stop_times.txt: gtfs-guru's invalid_row_length and
    /// CityPack's csv.invalid_row_length), checked as of one date so expiry does not depend on the day.
    @Test(.needsGTFSGuru, .needsSharedData, .needs(OutsideTools.python3))
    func scriptPrintsBothToolsSideBySide() throws {
        let feed = try #require(TestPaths.sharedData).appendingPathComponent("gtfs/google-sample-feed.zip").path
        let script = TestPaths.root.appendingPathComponent("scripts/gtfs-parity.py").path
        let plain = try OutsideTools.python3.run([script, "--citypack", CLIRunner.binary.path, "--date", "2026-06-01", feed])
        #expect(plain.status == 0, "\(plain.stderr)")
        let header = try #require(plain.stdout.split(separator: "\n").first { $0.hasPrefix("gtfs-validator notice") })
        #expect(header.contains("gtfs-guru") && header.contains("CityPack") && header.contains("CityPack codes"))
        let row = try #require(plain.stdout.split(separator: "\n").first { $0.hasPrefix("invalid_row_length ") })
        #expect(row.split(separator: " ").filter { !$0.isEmpty }.prefix(4) == ["invalid_row_length", "ERROR", "13", "13"])
        #expect(row.contains("csv.invalid_row_length=13"))
        #expect(plain.stdout.contains("expired_calendar"))
        let markdown = try OutsideTools.python3.run([script, "--citypack", CLIRunner.binary.path, "--date", "2026-06-01",
            "--markdown", feed])
        #expect(markdown.stdout.contains("| invalid_row_length | ERROR | 13 | 13 | covered | csv.invalid_row_length=13 |"),
            "\(markdown.stdout)")
    }

    /// Without gtfs-guru the script says how to get it instead of failing obscurely.
    @Test(.needs(OutsideTools.python3)) func scriptWithoutGTFSGuruSaysHowToInstallIt() throws {
        let script = TestPaths.root.appendingPathComponent("scripts/gtfs-parity.py").path
        let copy = try TestPaths.temporaryDirectory("gtfs-parity")
        defer { try? FileManager.default.removeItem(at: copy) }
        // A copy of the script outside the repository finds no .deps/gtfs-guru; -S hides site-packages.
        let scripts = copy.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: script, toPath: scripts.appendingPathComponent("gtfs-parity.py").path)
        let r = try ProcessRun.run(URL(fileURLWithPath: try OutsideTools.python3.require()),
            ["-S", scripts.appendingPathComponent("gtfs-parity.py").path, "--citypack", CLIRunner.binary.path, "feed.zip"],
            environment: ["PYTHONPATH": ""], cwd: copy)
        #expect(r.status == 69)
        #expect(r.stderr.contains("gtfs-guru is not installed: run scripts/install-deps.sh --tests"), "\(r.stderr)")
    }
}

extension Trait where Self == ConditionTrait {
    /// gtfs-guru, importable by Debian's python3 (``GTFSValidatorParityTests/schema``).
    fileprivate static var needsGTFSGuru: Self {
        .enabled(
            if: GTFSValidatorParityTests.schema != nil,
            "needs gtfs-guru 1.0.0 (scripts/install-deps.sh --tests installs it into .deps/gtfs-guru; .ci/run runs it)")
    }
}
