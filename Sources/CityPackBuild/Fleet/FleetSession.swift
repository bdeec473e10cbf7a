import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import Foundation

/// `citypack build DIR DIR …`, `--fleet fleet.yaml`, `--shard i/n` as a library call: many cities in one run
/// (``CityPackCompiler/Fleet``), each finished as a single build is (``BuildSession/finish(_:_:)``: its reports
/// and baseline), then one summary and the exit decision. Prints nothing: the caller renders each city through
/// the `finish` it passes, and the summary.
package enum FleetSession {
    /// What a fleet build is asked to do.
    package struct Request: Sendable {
        /// City directories or files given directly.
        package var cities: [String]
        /// A fleet file adding cities and defaults (output, templates, keep); nil: none.
        package var fleetFile: String? = nil
        /// `i/n`: build only this share of the cities; nil: all.
        package var shard: String? = nil
        /// Cities built at once; nil: one per core.
        package var jobs: Int? = nil
        /// The output root; nil: the fleet file's, else `outputs`.
        package var output: String? = nil
        /// What every city's build shares (templates, rules, baseline, release); its city and output are set
        /// per city. Its templates, when nil, come from the fleet file.
        package var base: BuildRequest

        /// A fleet of `cities` with `base`'s settings; no fleet file, no shard, one city per core, `outputs`.
        package init(cities: [String], base: BuildRequest) {
            self.cities = cities
            self.base = base
        }
    }

    /// Why a fleet could not start.
    package enum Failure: Error {
        /// The fleet file does not exist.
        case noSuchFleetFile(String)
        /// The fleet file has errors, all in the bag.
        case invalidFleetFile(DiagnosticBag)
        /// The shared baseline cannot be used.
        case session(BuildSessionError)
    }

    /// What happened besides the cities' own results, in order.
    package enum Event {
        /// A city directory or file that does not exist (the city is counted as missing).
        case missingCity(String)
        /// The fleet's catalog could not be written.
        case catalogNotWritten(output: String, failure: String)
    }

    /// A finished fleet.
    package struct Outcome: Sendable {
        package var summary: Summary
        /// ``BuildExit/ioFailure`` when an output could not be written, else ``BuildExit/dataErrors`` when a city
        /// failed or is missing, else ``BuildExit/success``.
        package var exit: BuildExit
    }

    /// One city's line of the summary.
    package struct CitySummary: Codable, Sendable {
        package var id: String?
        package var city: String
        /// built, unchanged, failed or missing.
        package var status: String
        package var pois: Int
        package var stops: Int
        package var bytes: Int?
        package var seconds: Double
        package var errors: Int
        package var warnings: Int
        package var report: String?
    }

    /// The fleet summary (`--format json`).
    package struct Summary: Codable, Sendable {
        package var version = 1
        package var shard: String?
        package var cities: [CitySummary]
        package var sharedReads: [SharedRead]
        package var catalog: String?
        package var failed: Int
        package var seconds: Double

        package struct SharedRead: Codable, Sendable {
            package var path: String
            package var cities: [String]
            package var seconds: Double
            package var bytes: Int64
            package var megabytesPerSecond: Double
            package var secondPassBlobs: Int
            package var blobs: Int
        }
    }

    /// Builds the fleet. `finish` finishes each city (in the order given; default ``BuildSession/finish(_:_:)``).
    /// - Throws: ``Failure`` when the fleet cannot start.
    package static func run(
        _ request: Request,
        finish: (BuildReport, BuildSession.Prepared) -> BuildResult = { BuildSession.finish($0, $1) },
        events: (Event) -> Void = { _ in }
    ) throws(Failure) -> Outcome {
        var cities = request.cities
        var output = request.output
        var base = request.base
        if let path = request.fleetFile {
            guard FileManager.default.fileExists(atPath: path) else { throw .noSuchFleetFile(path) }
            let bag = DiagnosticBag()
            guard let file = FleetFileLoader.load(path, bag: bag) else { throw .invalidFleetFile(bag) }
            cities += file.cities
            output = output ?? file.output
            base.templates = base.templates ?? file.templates
            if !base.release.keepVersionsExplicit, let keep = file.keep {
                base.release.keepVersions = keep
                base.release.keepVersionsExplicit = true
            }
        }
        let outputRoot = output ?? "outputs"
        var shardText: String?
        if let text = request.shard, let (index, count) = FleetShard.parse(text) {
            let names = cities.map { ($0 as NSString).standardizingPath }
            let mine = FleetShard.assign(weights: FleetShard.weights(of: cities), names: names, index: index, count: count)
            cities = mine.map { cities[$0] }
            shardText = text
        }
        base.release.writeCatalog = false
        base.output = outputRoot

        // One bag per city; cities whose folder is missing fail at once.
        let baseline: Baseline?
        do { baseline = try BuildSession.loadBaseline(base.baseline) } catch { throw .session(error) }
        var members: [FleetCity] = []
        var roots: [String?] = []
        var requests: [BuildRequest] = []
        for city in cities {
            let root = BuildSession.cityRoot(city)
            roots.append(root)
            var cityRequest = base
            cityRequest.city = city
            requests.append(cityRequest)
            members.append(FleetCity(options: cityRequest.buildOptions, bag: BuildSession.makeBag(cityRequest, baseline: baseline, root: root ?? city)))
        }
        let present = members.indices.filter { roots[$0] != nil }
        let fleet = Fleet.run(present.map { members[$0] }, outputDirectory: outputRoot, concurrency: request.jobs)

        var summaries: [CitySummary] = []
        var ioFailure = fleet.catalogFailure != nil
        for (i, city) in cities.enumerated() {
            guard let root = roots[i], let slot = present.firstIndex(of: i) else {
                events(.missingCity(city))
                summaries.append(
                    CitySummary(city: city, status: "missing", pois: 0, stops: 0, seconds: 0, errors: 1, warnings: 0))
                continue
            }
            let build = fleet.cities[slot]
            let prepared = BuildSession.Prepared(request: requests[i], root: root, bag: members[i].bag, plan: build.plan)
            let result = finish(build, prepared)
            ioFailure = ioFailure || result.ioFailure
            let emitted = build.emitted
            let id = build.city?.id
            summaries.append(
                CitySummary(
                    id: id, city: city,
                    status: emitted.map { $0.changed ? "built" : "unchanged" } ?? "failed",
                    pois: emitted?.manifest.counts.pois ?? build.poisKept,
                    stops: emitted?.manifest.counts.stops ?? 0,
                    bytes: emitted.map { $0.manifest.artifact.bytes },
                    seconds: BuildStats.milliseconds(fleet.seconds[slot]),
                    errors: result.report.errors, warnings: result.report.warnings,
                    report: ReportWriter.folder(output: outputRoot, city: id ?? (root as NSString).lastPathComponent) + "/report.json"))
        }
        if let failure = fleet.catalogFailure {
            events(.catalogNotWritten(output: outputRoot, failure: "\(failure)"))
        }
        let failed = summaries.filter { $0.status == "failed" || $0.status == "missing" }.count
        let summary = Summary(
            shard: shardText, cities: summaries,
            sharedReads: fleet.sharedReads.map {
                Summary.SharedRead(
                    path: $0.path, cities: $0.cities, seconds: BuildStats.milliseconds($0.seconds), bytes: $0.figures.fileBytes,
                    megabytesPerSecond: ($0.seconds > 0 ? Double($0.figures.fileBytes) / 1e6 / $0.seconds * 10 : 0).rounded() / 10,
                    secondPassBlobs: $0.figures.secondPassBlobs, blobs: $0.figures.blobs)
            },
            catalog: fleet.catalogPath, failed: failed, seconds: BuildStats.milliseconds(fleet.totalSeconds))
        return Outcome(summary: summary, exit: ioFailure ? .ioFailure : failed > 0 ? .dataErrors : .success)
    }
}
