import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// Plans inspected the way swift-driver's tests inspect jobs: which stages, what each reads and produces, and
/// that ``Compiler/run(_:bag:)`` executes exactly those stages, recording each one's time and counts.
@Suite struct BuildPlanTests {
    static let monaco = TestPaths.root.appendingPathComponent("inputs/monaco").path
    static let diagnosticsCity = TestPaths.root.appendingPathComponent("Tests/Fixtures/diagnostics/city").path
    static let templates = TestPaths.root.appendingPathComponent("templates").path
    static let templateCopy = TemplateSource.folder(templates).subfolder("copy")

    /// A folder of this test process's own: plans that run write their cache there (a fixed path such as
    /// /nonexistent/outputs would be created when the tests run as root, and then exist for every later test).
    static let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("citypack-plan-outputs-\(ProcessInfo.processInfo.processIdentifier)").path

    static func options(_ city: String, emit: Bool, output: String = outputs) -> BuildOptions {
        var options = BuildOptions(
            cityPath: city, outputDirectory: output, templatesDirectory: templates, emit: emit, sourceDateEpoch: 1_780_272_000)
        options.buildDate = (2026, 6, 1)
        return options
    }

    static func plan(_ options: BuildOptions, bag: DiagnosticBag = DiagnosticBag()) throws -> BuildPlan {
        try #require(Compiler.plan(options, bag: bag), "\(bag.diagnostics)")
    }

    static func path(_ city: String, _ name: String) -> String { (city as NSString).appendingPathComponent(name) }

    /// Every input of every stage is a file, the plan's profile, or an output of an earlier stage.
    static func expectWellFormed(_ plan: BuildPlan) {
        var produced: Set<BuildArtifact> = [.profile]
        for stage in plan.stages {
            for input in stage.inputs {
                switch input {
                case .source, .templateCopy: continue
                default: #expect(produced.contains(input), "\(stage.kind.name) reads \(input), which no earlier stage produces")
                }
            }
            produced.formUnion(stage.outputs)
        }
    }

    // MARK: plans

    @Test func checkOfMonaco() throws {
        let plan = try Self.plan(Self.options(Self.monaco, emit: false))
        let osm = Self.path(Self.monaco, "monaco-2021.osm.gz")
        let editorial = Self.path(Self.monaco, "editorial")
        let copy = Self.path(Self.monaco, "copy")
        #expect(plan.city.id == "monaco")
        #expect(
            plan.kinds == [
                .ingestOSM(files: [osm]), .ingestEditorial(directory: editorial),
                .ingestCopy(templates: Self.templateCopy, cityDirectory: copy), .validate,
            ])
        #expect(plan.stages[0].inputs == [.source(osm), .profile] && plan.stages[0].outputs == [.pois])
        #expect(plan.stages[1].inputs == [.source(editorial)] && plan.stages[1].outputs == [.editorial])
        #expect(plan.stages[2].inputs == [.templateCopy(Self.templateCopy), .source(copy)] && plan.stages[2].outputs == [.copy])
        #expect(plan.stages[3].inputs == [.pois, .editorial, .copy, .profile])
        #expect(plan.stages[3].outputs == [.diagnostics, .keptPOIs, .keptEditorial])
        #expect(plan.stages.map(\.phase) == [.ingest, .ingest, .ingest, .validate])
        Self.expectWellFormed(plan)
        #expect(
            plan.description == """
                1. ingest OSM: monaco-2021.osm.gz, profile → POIs
                2. ingest editorial: editorial → cards, routes
                3. ingest copy: template copy, copy → copy
                4. validate: POIs, cards, routes, copy, profile → diagnostics, POIs kept, cards, routes kept
                """)
    }

    @Test func buildOfMonacoAddsIndexAndEmit() throws {
        let plan = try Self.plan(Self.options(Self.monaco, emit: true, output: "out"))
        let check = try Self.plan(Self.options(Self.monaco, emit: false))
        #expect(Array(plan.stages.dropLast()) == check.stages, "a build plans what a check plans, then emits")
        let emit = try #require(plan.stages.last)
        #expect(emit.kind == .emit(outputDirectory: "out"))
        #expect(emit.phase == .emit && !emit.phase.runsAfterErrors)
        #expect(
            emit.inputs == [
                .keptPOIs, .keptEditorial, .copy, .profile, .source(Self.path(Self.monaco, "monaco-2021.osm.gz")),
                .source(Self.path(Self.monaco, "editorial")), .source(Self.path(Self.monaco, "copy")),
            ])
        #expect(
            emit.outputs == [
                .output("out/monaco/monaco-N.citypack.gz"), .output("out/monaco/monaco-N.manifest.json"),
                .output("out/monaco/manifest.json"), .output("out/monaco/copy/"), .output("out/monaco/web/"),
                .output("out/catalog.json"),
            ])
        Self.expectWellFormed(plan)
    }

    @Test func aCityWithGTFSPlansATransitStage() throws {
        let plan = try Self.plan(Self.options(Self.diagnosticsCity, emit: true, output: "out"))
        let gtfs = Self.path(Self.diagnosticsCity, "gtfs")
        #expect(
            plan.kinds == [
                .ingestOSM(files: [Self.path(Self.diagnosticsCity, "map.osm")]), .ingestGTFS(feeds: [gtfs]),
                .ingestEditorial(directory: Self.path(Self.diagnosticsCity, "editorial")),
                .ingestCopy(templates: Self.templateCopy, cityDirectory: Self.path(Self.diagnosticsCity, "copy")),
                .validate, .emit(outputDirectory: "out"),
            ])
        #expect(plan.stages[1].inputs == [.source(gtfs)] && plan.stages[1].outputs == [.transit])
        #expect(plan.stages[4].inputs.contains(.transit) && plan.stages[5].inputs.contains(.transit))
        Self.expectWellFormed(plan)
    }

    @Test func aGTFSOnlyCityReadsNoOSM() throws {
        let city = try TinyTransitCity()
        let plan = try Self.plan(Self.options(city.path, emit: true, output: city.output))
        #expect(
            plan.kinds == [
                .ingestGTFS(feeds: [Self.path(city.path, "gtfs")]), .ingestCopy(templates: Self.templateCopy, cityDirectory: nil),
                .validate, .emit(outputDirectory: city.output),
            ])
        #expect(plan.stages[2].inputs == [.transit, .copy, .profile] && plan.stages[2].outputs == [.diagnostics, .keptPOIs])
        Self.expectWellFormed(plan)
    }

    @Test func aBrokenCityFileGivesNoPlan() throws {
        let dir = try TestPaths.temporaryDirectory("plan-broken")
        try "id: [\n".write(to: dir.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        let bag = DiagnosticBag()
        #expect(Compiler.plan(Self.options(dir.path, emit: true), bag: bag) == nil)
        #expect(bag.hasErrors)
    }

    @Test func aMissingProfileGivesAPlanWithoutStages() throws {
        var options = Self.options(Self.monaco, emit: true)
        options.templatesDirectory = "/nonexistent/templates"
        let bag = DiagnosticBag()
        let plan = try Self.plan(options, bag: bag)
        #expect(plan.stages.isEmpty && plan.profile == nil && plan.city.id == "monaco")
        #expect(bag.diagnostics.map(\.code) == [Rules.cityMissingSource.code])
        let report = Compiler.run(plan, bag: bag)
        #expect(report.records.isEmpty && report.city?.id == "monaco")
    }

    // MARK: runs

    @Test func aCheckRunsExactlyItsPlan() throws {
        let bag = DiagnosticBag()
        let plan = try Self.plan(Self.options(Self.monaco, emit: false), bag: bag)
        let report = Compiler.run(plan, bag: bag)
        #expect(report.records.map(\.stage) == plan.stages)
        #expect(report.records.allSatisfy { $0.seconds >= 0 })
        let osm = report.records[0].counts
        #expect((osm[.pois] ?? 0) > 0 && (osm[.nodes] ?? 0) > 0 && (osm[.bytes] ?? 0) > 0, "\(osm)")
        #expect(report.records[1].counts[.cards] == report.cards && report.cards > 0)
        #expect(report.records[3].counts[.poisKept] == report.poisKept && report.poisKept > 0)
        #expect(report.emitted == nil)
        // build-stats.json's per-phase summary: GTFS counts are listed as 0 although no GTFS stage ran.
        #expect(report.phases.map(\.phase) == [.ingest, .validate])
        #expect(report.phases[0].counts[.stops] == 0 && report.phases[0].counts[.pois] == osm[.pois])
    }

    @Test func aBuildRunsIndexAndEmit() throws {
        let output = try TestPaths.temporaryDirectory("plan-build").path
        let bag = DiagnosticBag()
        let plan = try Self.plan(Self.options(Self.monaco, emit: true, output: output), bag: bag)
        let report = Compiler.run(plan, bag: bag)
        #expect(report.records.map(\.stage) == plan.stages)
        let emitted = try #require(report.emitted)
        #expect(report.records.last?.counts == [.pois: emitted.manifest.counts.pois, .packBytes: Int(emitted.manifest.artifact.bytes)])
        #expect(FileManager.default.fileExists(atPath: emitted.packPath))
        #expect(report.phases.map(\.phase.rawValue) == ["ingest", "validate", "index+emit"])
    }

    @Test func errorsStopTheRunBeforeEmit() throws {
        let output = try TestPaths.temporaryDirectory("plan-errors").path
        let bag = DiagnosticBag()
        let plan = try Self.plan(Self.options(Self.diagnosticsCity, emit: true, output: output), bag: bag)
        let report = Compiler.run(plan, bag: bag)
        #expect(bag.hasErrors)
        // Validation ran after the reading errors; index+emit did not.
        #expect(report.records.map(\.stage.kind) == plan.kinds.dropLast())
        #expect(report.emitted == nil)
        #expect(report.records[1].counts[.stopTimes] == 3)
        #expect(
            bag.diagnostics.contains { $0.code.hasPrefix("gtfs.") && $0.location?.field != nil && ($0.location?.column ?? 0) > 1 },
            "validation's findings leave the library with their cells' columns")
        #expect(!bag.diagnostics.contains { $0.location?.field != nil && $0.location?.line ?? 0 > 0 && $0.location?.column == 0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).isEmpty, "nothing written")
    }

    @Test func aGTFSOnlyBuildEmitsItsStops() throws {
        let city = try TinyTransitCity()
        let bag = DiagnosticBag()
        let plan = try Self.plan(Self.options(city.path, emit: true, output: city.output), bag: bag)
        let report = Compiler.run(plan, bag: bag)
        #expect(!bag.hasErrors, "\(bag.diagnostics)")
        #expect(report.records.map(\.stage) == plan.stages)
        #expect(report.records[0].counts == [.stops: 2, .stopTimes: 2])
        #expect(report.emitted?.manifest.counts.stops == 2)
    }
}

/// A city with one small valid GTFS feed and no OSM, written to a temporary folder.
struct TinyTransitCity {
    let path: String
    let output: String

    init() throws {
        let dir = try TestPaths.temporaryDirectory("tiny-transit")
        let gtfs = dir.appendingPathComponent("gtfs")
        try FileManager.default.createDirectory(at: gtfs, withIntermediateDirectories: true)
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Bus Co,https://example.com,Europe/Monaco\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,Casino,43.739,7.427\nS2,Port,43.735,7.421\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Casino - Port,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20260101,20271231\n",
        ]
        for (name, text) in files { try text.write(to: gtfs.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try """
            id: tinytransit
            name: "Tiny Transit"
            locales: [en]
            bbox: [7.40, 43.72, 7.44, 43.76]
            sources:
              gtfs: ["gtfs"]
            """.write(to: dir.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        path = dir.path
        output = dir.appendingPathComponent("outputs").path
    }
}
