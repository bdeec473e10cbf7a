import CityPackDiagnostics
import CityPackGeometry
import CityPackTestSupport
import CityPackEmit
import CityPackIngest
import CityPackModel
import Foundation
import Testing

// @testable: stage keys and the settings each stage declares are internal to the compiler.
@testable import CityPackCompiler

/// Every stage's cache key changes with what the stage reads and with nothing else (issue 40: a GTFS stage's key
/// without `limits`, or the validation key without the build date, passed every test). ``reads`` says, apart
/// from the key code, what each stage reads; each variation below changes one setting of a planned city (the
/// diagnostics fixture: OSM, GTFS, editorial and copy) and the test computes every stage's key before and after.
/// Two checks keep the table honest both ways: a variation must change exactly the keys of the stages that read
/// it, and every setting a stage declares (``StageWork/settings(of:)``, by label) must be exercised by some
/// variation, so a new declared input cannot go untested; a new field of `InputLimits` needs a variation too.
@Suite struct StageKeyReadsTests {
    typealias Variation = (name: String, label: String, change: (inout BuildPlan) throws -> Void)

    static let city = BuildPlanTests.diagnosticsCity

    /// Stage ids (``StageKind/id``) by what the stage reads, written from the stages' code, not from the keys.
    static let reads: [String: Set<String>] = [
        // A PBF/XML is read for the box only, with the limits; the bbox's line locates the findings about it.
        "bbox": ["ingestOSM"],
        "bbox location": ["ingestOSM", "validate", "emit"],
        "limits": ["ingestOSM", "ingestGTFS"],
        // Editorial and copy are read for the city's locales, the default first.
        "default locale": ["ingestEditorial", "ingestCopy"],
        "locales": ["ingestEditorial", "ingestCopy"],
        // Validation judges calendars and feed dates against the build date, and so does the pack's manifest.
        "today": ["validate", "emit"],
        "city file": ["validate", "emit"],
        "source date epoch": ["emit"],
        "output": ["emit"],
        "release": ["emit"],
    ]

    static func limitsVariation(_ field: String, _ change: @escaping (inout InputLimits) -> Void) -> Variation {
        ("limits.\(field)", "limits", { change(&$0.city.limits) })
    }

    /// One variation per `InputLimits` field (checked against its stored properties below).
    static var limitsVariations: [Variation] { [
        limitsVariation("fileSize") { $0.fileSize -= 1 }, limitsVariation("valueSize") { $0.valueSize -= 1 },
        limitsVariation("tagsPerElement") { $0.tagsPerElement -= 1 }, limitsVariation("refsPerElement") { $0.refsPerElement -= 1 },
        limitsVariation("depth") { $0.depth -= 1 }, limitsVariation("rows") { $0.rows -= 1 },
        limitsVariation("fieldsPerRow") { $0.fieldsPerRow -= 1 }, limitsVariation("zipSize") { $0.zipSize -= 1 },
        limitsVariation("zipRatio") { $0.zipRatio -= 1 }, limitsVariation("zipEntries") { $0.zipEntries -= 1 },
    ] }

    /// A copy of the fixture's city file with one more line before `bbox:` (its content and bbox line change).
    static func shiftedCityFile() throws -> String {
        let folder = try TestPaths.temporaryDirectory("stage-key-city")
        let text = try String(contentsOfFile: BuildPlanTests.path(city, "city.yaml"), encoding: .utf8)
        let shifted = text.replacingOccurrences(of: "bbox:", with: "# a comment line\nbbox:")
        let file = folder.appendingPathComponent("city.yaml")
        try shifted.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static var variations: [Variation] { limitsVariations + [
        ("bbox", "bbox", { $0.city.bbox = BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.45, maxLat: 43.76) }),
        ("bbox line", "bbox location", { $0.city.file = try shiftedCityFile() }),
        ("default locale", "default locale", { $0.city.defaultLocale = "fr" }),
        ("locales", "locales", { $0.city.locales.append("de") }),
        ("build date", "today", { $0.options.buildDate = (2026, 6, 2) }),
        ("source date epoch", "source date epoch", { $0.options.sourceDateEpoch = ($0.options.sourceDateEpoch ?? 0) + 1 }),
        ("output folder", "output", { plan in
            plan.stages = plan.stages.map { stage in
                guard case .emit = stage.kind else { return stage }
                return Stage(.emit(outputDirectory: "/elsewhere/outputs"), inputs: stage.inputs, outputs: stage.outputs)
            }
        }),
        ("keep versions", "release", { $0.options.release.keepVersions += 1 }),
    ] }

    /// Each stage's key for `plan`, by stage id.
    static func keys(_ plan: BuildPlan) throws -> [String: String] {
        let profile = try #require(plan.profile)
        let work = StageWork(plan: plan, profile: profile, bag: DiagnosticBag())
        return Dictionary(uniqueKeysWithValues: plan.stages.map { ($0.kind.id, work.key(of: $0).hex) })
    }

    static func basePlan() throws -> BuildPlan {
        var options = BuildPlanTests.options(city, emit: true)
        options.useCache = false
        return try BuildPlanTests.plan(options)
    }

    @Test func eachVariationChangesTheKeysOfTheStagesThatReadIt() throws {
        let base = try Self.basePlan()
        #expect(base.stages.count == 6, "\(base.kinds)")
        let before = try Self.keys(base)
        for variation in Self.variations {
            var plan = base
            try variation.change(&plan)
            let after = try Self.keys(plan)
            let changed = Set(after.filter { before[$0.key] != $0.value }.keys)
            let expected = try #require(Self.reads[variation.label], "\(variation.label) is not in the reads table")
            #expect(changed == expected, "\(variation.name): keys changed \(changed.sorted()), expected \(expected.sorted())")
        }
    }

    @Test func everyDeclaredSettingHasAVariation() throws {
        let base = try Self.basePlan()
        let profile = try #require(base.profile)
        let work = StageWork(plan: base, profile: profile, bag: DiagnosticBag())
        let varied = Set(Self.variations.map(\.label))
        for stage in base.stages {
            for input in work.settings(of: stage.kind) {
                let label: String? = switch input {
                case .fields(let label, _, _), .value(let label, _): label
                case .cityFile: "city file"
                case .artifact: nil
                }
                guard let label else { continue }
                #expect(varied.contains(label) || label == "city file", "\(stage.kind.id) declares \(label) but no variation changes it")
                #expect(Self.reads[label]?.contains(stage.kind.id) == true, "\(stage.kind.id) declares \(label), which the reads table does not list for it")
            }
        }
        // The city file itself is varied through its bbox line (its content changes too).
        let limitFields = Set(Mirror(reflecting: InputLimits()).children.compactMap(\.label))
        #expect(limitFields == Set(Self.limitsVariations.map { String($0.name.dropFirst("limits.".count)) }),
            "a field of InputLimits has no variation here")
    }
}
