import CityPackCache
import CityPackDiagnostics
import CityPackEmit
import CityPackIngest
import CityPackModel
import Dispatch
import Foundation

/// One city of a fleet: what to build and the bag its findings go to (one bag per city).
package struct FleetCity: Sendable {
    package var options: BuildOptions
    package var bag: DiagnosticBag

    package init(options: BuildOptions, bag: DiagnosticBag) {
        self.options = options
        self.bag = bag
    }
}

/// One OSM file read once for several cities.
package struct SharedOSMRead: Sendable {
    /// The file as the first city names it.
    package var path: String
    /// The ids of the cities it was read for.
    package var cities: [String]
    package var seconds: Double
    package var figures: OSMRegionReader.Figures
}

/// The outcome of a fleet build: one report per city, in the order given.
package struct FleetReport: Sendable {
    package var cities: [BuildReport] = []
    /// Wall-clock seconds of each city's own stages (after the shared reads).
    package var seconds: [Double] = []
    package var sharedReads: [SharedOSMRead] = []
    /// The catalog written after the last city; nil when no city was emitted or writing it failed.
    package var catalogPath: String?
    /// Why the catalog could not be written.
    package var catalogFailure: String?
    package var totalSeconds: Double = 0
}

/// Builds many cities in one run (`citypack build DIR DIR …`, `--fleet fleet.yaml`).
///
/// Every OSM PBF file that cities name is read once for all of them (``OSMRegionReader``: each element goes to
/// every city whose bbox holds it, complete ways), then the cities are validated, indexed and emitted as single
/// builds are, several at a time (one per core), each into its own bag and report. A city with errors writes
/// nothing and keeps its previous pack; the others are built. The catalog is written once, after the last city.
package enum Fleet {
    /// Builds `cities`. Cities whose options say `emit: false` are checked only.
    /// - Parameters:
    ///   - outputDirectory: Where the catalog is written (the cities' common output root).
    ///   - concurrency: Cities built at once; nil = one per core.
    package static func run(_ cities: [FleetCity], outputDirectory: String, concurrency: Int? = nil) -> FleetReport {
        let start = ContinuousClock.now
        var report = FleetReport()
        var plans = cities.map { Compiler.plan($0.options, bag: $0.bag) }
        refuseDuplicateIDs(cities, &plans)

        // Shared reads: each PBF file once per group of at most 64 cities.
        var readers: [Int: (OSMReader, CurrentItem)] = [:]
        var prereadFiles: [Int: Set<String>] = [:]
        var groups: [(key: String, members: [(city: Int, file: String)])] = []
        for (i, plan) in plans.enumerated() {
            guard let plan, plan.profile != nil, !cities[i].bag.hasErrors else { continue }
            for stage in plan.stages {
                guard case .ingestOSM(let files) = stage.kind else { continue }
                for file in files where OSMReader.isPBF(path: file) {
                    let key = canonicalPath(file)
                    if let g = groups.firstIndex(where: { $0.key == key }) {
                        groups[g].members.append((i, file))
                    } else {
                        groups.append((key, [(i, file)]))
                    }
                }
            }
        }
        for group in groups {
            for chunkStart in stride(from: 0, to: group.members.count, by: OSMRegionReader.maxRegions) {
                let members = group.members[chunkStart..<min(group.members.count, chunkStart + OSMRegionReader.maxRegions)]
                var regions: [OSMRegionReader.Region] = []
                var workers = ProcessInfo.processInfo.activeProcessorCount
                for (city, file) in members {
                    guard let plan = plans[city], let profile = plan.profile else { continue }
                    if readers[city] == nil {
                        let current = CurrentItem()
                        readers[city] = (
                            StageWork.makeOSMReader(plan: plan, profile: profile, bag: cities[city].bag, current: current), current
                        )
                    }
                    let (reader, current) = readers[city]!
                    let shown = Compiler.displayPath(file, city: plan.city)
                    current.name = shown
                    workers = reader.options.pbfWorkers
                    regions.append(
                        .init(
                            box: plan.city.bbox, reader: reader, displayPath: shown,
                            boxLocation: Compiler.keyLocation("bbox", in: plan.city.file)))
                    prereadFiles[city, default: []].insert(file)
                }
                let readStart = ContinuousClock.now
                var figures = OSMRegionReader.Figures()
                let path = members.first!.file
                // The manifests' source hashes come from this read's bytes: the file is read once, not hashed first.
                let before = DigestMemo.statFacts(path)
                let hashing = before != nil && DigestMemo.settledSHA256(path) == nil
                let startedAt = DigestMemo.now
                do {
                    figures = try OSMRegionReader.read(path: path, regions: regions, workers: workers, hashing: hashing)
                    if let before, let digest = figures.digest { DigestMemo.record(path, before: before, startedAt: startedAt, digest: digest) }
                } catch {
                    for (city, file) in members {
                        guard let plan = plans[city] else { continue }
                        cities[city].bag.report(
                            Rules.packIOFailure, "\(error)", at: SourceLocation(file: Compiler.displayPath(file, city: plan.city)))
                    }
                }
                report.sharedReads.append(
                    SharedOSMRead(
                        path: members.first!.file, cities: members.compactMap { plans[$0.city]?.city.id },
                        seconds: seconds(since: readStart), figures: figures))
            }
        }

        // The cities, several at a time.
        let results = ResultSlots(count: cities.count)
        let queue = DispatchQueue(label: "citypack.fleet", attributes: .concurrent)
        let slots = DispatchSemaphore(value: max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount))
        let group = DispatchGroup()
        for (i, plan) in plans.enumerated() {
            guard var plan else {
                results.set(i, BuildReport(), 0)
                continue
            }
            plan.options.release.writeCatalog = false
            // The cities' OSM reads are shared, so a fleet neither reads nor writes the build cache.
            plan.options.useCache = false
            let preread = readers[i].map { PrereadOSM(reader: $0.0, files: prereadFiles[i] ?? [], current: $0.1) }
            let box = UncheckedBox((plan, preread, cities[i].bag))
            group.enter()
            queue.async(execute: DispatchWorkItem {
                slots.wait()
                defer {
                    slots.signal()
                    group.leave()
                }
                let cityStart = ContinuousClock.now
                let (plan, preread, bag) = box.value
                let built = Compiler.run(plan, bag: bag, preread: preread)
                results.set(i, built, seconds(since: cityStart))
            })
        }
        group.wait()
        (report.cities, report.seconds) = results.all()

        // A shard given no city (more shards than cities) still finishes: an empty catalog marks its folder done,
        // so `catalog --merge` of every shard's folder works as written.
        if report.cities.contains(where: { $0.emitted != nil }) || cities.isEmpty {
            let key = cities.first?.options.release.signingKey
            do {
                if cities.isEmpty {
                    do {
                        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
                    } catch {
                        throw EmitError.io(path: outputDirectory, message: "cannot create the folder: \(error.localizedDescription)")
                    }
                }
                report.catalogPath = try CatalogWriter.write(outputDirectory: outputDirectory, signingKey: key)
            } catch {
                report.catalogFailure = "\(error)"
            }
        }
        report.totalSeconds = seconds(since: start)
        return report
    }

    /// Two cities with one id would overwrite each other's pack: neither is built.
    static func refuseDuplicateIDs(_ cities: [FleetCity], _ plans: inout [BuildPlan?]) {
        var byID: [String: [Int]] = [:]
        for (i, plan) in plans.enumerated() { if let id = plan?.city.id { byID[id, default: []].append(i) } }
        for (id, members) in byID where members.count > 1 {
            let files = members.compactMap { plans[$0]?.city.file }
            for i in members {
                guard let city = plans[i]?.city else { continue }
                let others = files.filter { $0 != city.file }
                cities[i].bag.report(
                    Rules.cityDuplicateID,
                    "city id '\(id)' is also the id of \(others.joined(separator: ", ")); neither is built (each city needs its own id)",
                    at: Compiler.keyLocation("id", in: city.file),
                    entity: id)
                plans[i] = nil
            }
        }
    }

    /// The file's absolute path with symbolic links, `.` and `..` resolved (`realpath`), so that two cities
    /// naming one file by different paths share its read.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The cities' results, filled from several threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [BuildReport]
    private var seconds: [Double]

    init(count: Int) {
        reports = Array(repeating: BuildReport(), count: count)
        seconds = Array(repeating: 0, count: count)
    }

    func set(_ i: Int, _ report: BuildReport, _ s: Double) {
        lock.withLock {
            reports[i] = report
            seconds[i] = s
        }
    }

    func all() -> ([BuildReport], [Double]) { lock.withLock { (reports, seconds) } }
}

/// Hands a value that is used by one thread at a time to another thread.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
