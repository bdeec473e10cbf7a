import CityPackFormat
import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// Builds killed (SIGKILL) at random moments leave the outputs folder consistent: as before or as after; and the
/// next build removes everything the killed one left (docs/RELEASES.md, Atomicity).
@Suite(.serialized) struct KillTests {
    /// What a look at the outputs folder found.
    struct Inspection {
        var problems: [String] = []
        /// The catalog lists the previous release while `manifest.json` is already the new one (the instant
        /// between the last two renames).
        var catalogLags = false
        /// Complete versioned files newer than `manifest.json`: a build killed between its renames.
        var orphans = 0
        var orphanNames: [String] = []
        /// Hidden staging folders or temporary files (never referenced, removed by the next build).
        var hiddenDebris = 0
        var hiddenNames: [String] = []
        var manifestBytes: Data?
        var dataVersion: Int?
        var contentSha256: String?
    }

    static func sha256(_ path: String) -> String? { (try? FileDigest(path: path))?.sha256 }

    static func json(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Checks every invariant a reader relies on.
    static func inspect(_ f: ReleaseFixture) -> Inspection {
        var r = Inspection()
        let fm = FileManager.default
        let root = f.output.path
        let city = f.cityDir.path
        for name in (try? fm.contentsOfDirectory(atPath: root)) ?? [] {
            // `.cache` is the build cache (not debris: kept between builds, outside the release's contract).
            if name == ".lock" || name == ".cache" || name == "catalog.json" || name == "release" { continue }
            if name.hasPrefix(".") { r.hiddenDebris += 1; r.hiddenNames.append(name) } else { r.problems.append("unexpected visible file \(name)") }
        }
        // manifest.json and the versioned manifests: each artifact exists with the recorded size and hash.
        func checkManifest(_ path: String) -> [String: Any]? {
            guard let m = json(path) else {
                r.problems.append("\(path): missing or not JSON")
                return nil
            }
            let artifact = m["artifact"] as? [String: Any] ?? [:]
            let pack = (city as NSString).appendingPathComponent(artifact["path"] as? String ?? "?")
            let size = (try? fm.attributesOfItem(atPath: pack))?[.size] as? Int
            if sha256(pack) != artifact["sha256"] as? String || size != artifact["bytes"] as? Int {
                r.problems.append("\(path): artifact \(pack) missing or does not match")
            }
            // Every delta the manifest lists exists with its recorded size and hash.
            for delta in m["deltas"] as? [[String: Any]] ?? [] {
                let file = (city as NSString).appendingPathComponent(delta["path"] as? String ?? "?")
                let bytes = (try? fm.attributesOfItem(atPath: file))?[.size] as? Int
                if sha256(file) != delta["sha256"] as? String || bytes != delta["bytes"] as? Int {
                    r.problems.append("\(path): delta \(file) missing or does not match")
                }
            }
            // The web files it names (each part's head and chunks) are there, with the recorded hash.
            for part in (m["web"] as? [String: Any])?["parts"] as? [[String: Any]] ?? [] {
                for entry in [part] + (part["chunks"] as? [[String: Any]] ?? []) {
                    let file = (city as NSString).appendingPathComponent(entry["path"] as? String ?? "?")
                    if sha256(file) != entry["sha256"] as? String { r.problems.append("\(path): web file \(file) missing or does not match") }
                }
            }
            return m
        }
        var current: Int?
        if fm.fileExists(atPath: f.manifest.path) {
            let m = checkManifest(f.manifest.path)
            current = m?["dataVersion"] as? Int
            r.dataVersion = current
            r.contentSha256 = m?["contentSha256"] as? String
            r.manifestBytes = fm.contents(atPath: f.manifest.path)
        }
        for name in (try? fm.contentsOfDirectory(atPath: city)) ?? [] {
            // Build reports (written even by failed builds) and the copy tables are not release files; the web
            // parts are checked through the manifests that name them.
            if ["manifest.json", "report.json", "report.html", "build-stats.json", "copy", "web"].contains(name) { continue }
            if name.hasPrefix(".") {
                r.hiddenDebris += 1
                r.hiddenNames.append("release/" + name)
                continue
            }
            if let delta = PackDelta.versions(fileName: name, city: "release") ?? ManifestPatch.versions(fileName: name, city: "release") {
                // A delta (or a manifest patch) lives with the manifest of its `to` version; newer than
                // manifest.json: an orphan.
                if delta.to > (current ?? 0) { r.orphans += 1; r.orphanNames.append("release/" + name) }
                continue
            }
            let parts = name.split(separator: "-", maxSplits: 1)
            let versionText = parts.count == 2 ? parts[1].prefix { $0.isNumber } : ""
            guard parts.first == "release", let version = Int(versionText),
                name == "release-\(version).citypack.gz" || name == "release-\(version).manifest.json"
            else {
                r.problems.append("unexpected visible file release/\(name)")
                continue
            }
            if version > (current ?? 0) { r.orphans += 1; r.orphanNames.append("release/" + name) }
            if name.hasSuffix(".manifest.json") { _ = checkManifest((city as NSString).appendingPathComponent(name)) }
        }
        // The catalog: each entry matches the manifest it names, and that manifest's pack.
        if let catalog = json(f.catalog.path) {
            for entry in catalog["packs"] as? [[String: Any]] ?? [] {
                let manifestPath = (root as NSString).appendingPathComponent(entry["manifest"] as? String ?? "?")
                if sha256(manifestPath) != entry["manifestSha256"] as? String {
                    r.problems.append("catalog: manifest \(manifestPath) missing or differs from manifestSha256")
                }
                let packPath = (root as NSString).appendingPathComponent(entry["path"] as? String ?? "?")
                if sha256(packPath) != entry["sha256"] as? String { r.problems.append("catalog: pack \(packPath) missing or differs") }
                for delta in entry["deltas"] as? [[String: Any]] ?? [] {
                    let deltaPath = (root as NSString).appendingPathComponent(delta["path"] as? String ?? "?")
                    if sha256(deltaPath) != delta["sha256"] as? String {
                        r.problems.append("catalog: delta \(deltaPath) missing or differs")
                    }
                }
                // Each manifest patch it lists is there and gives the manifest it names from the one it starts at.
                for patch in entry["manifestPatches"] as? [[String: Any]] ?? [] {
                    let patchPath = (root as NSString).appendingPathComponent(patch["path"] as? String ?? "?")
                    let from = patch["from"] as? Int ?? -1
                    let base = (PathText.parent(manifestPath) as NSString).appendingPathComponent("release-\(from).manifest.json")
                    guard sha256(patchPath) == patch["sha256"] as? String, let data = fm.contents(atPath: patchPath),
                        let decoded = try? JSONDecoder().decode(ManifestPatch.self, from: data), let baseBytes = fm.contents(atPath: base),
                        let expected = entry["manifestSha256"] as? String,
                        (try? decoded.apply(to: [UInt8](baseBytes), expected: expected, sha256: { FileDigest.sha256(of: $0) })) != nil
                    else {
                        r.problems.append("catalog: manifest patch \(patchPath) missing, differs or does not give \(manifestPath)")
                        continue
                    }
                }
                if json(manifestPath)?["dataVersion"] as? Int != entry["dataVersion"] as? Int {
                    r.problems.append("catalog: data version differs from its manifest")
                }
                let version = entry["dataVersion"] as? Int ?? -1
                if let current, version < current { r.catalogLags = true }
                if version > (current ?? 0) { r.problems.append("catalog: version \(version) ahead of manifest.json") }
            }
        } else if fm.fileExists(atPath: f.catalog.path) {
            r.problems.append("catalog.json is not JSON")
        } else if current != nil {
            r.catalogLags = true  // first release: manifest.json in place, catalog not yet
        }
        return r
    }

    /// Starts an uncached build (every stage runs, so each build takes its full time and reaches the commit);
    /// kills it with SIGKILL after `delay` seconds unless it finished. Returns true when killed. `watch` is called
    /// every millisecond or so while the build runs, with the seconds since it started.
    static func runAndKill(
        _ f: ReleaseFixture, delay: Double?, keep: Int, cached: Bool = false, watch: ((Double) -> Void)? = nil
    ) throws -> (killed: Bool, status: Int32) {
        let p = Process()
        p.executableURL = CLIRunner.binary
        // 15 ms before each rename: kills land between them.
        p.arguments = f.buildArguments(["--keep", String(keep), "--test-step-delay-us", "15000"] + (cached ? [] : ["--no-cache"]))
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try p.run()
        var killed = false
        if let watch {
            while p.isRunning {
                watch(Self.seconds(clock.now - start))
                usleep(500)
            }
        } else if let delay {
            usleep(UInt32(delay * 1_000_000))
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                killed = true
            }
        }
        p.waitUntilExit()
        return (killed && p.terminationReason == .uncaughtSignal, p.terminationStatus)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// When, in seconds after an uncached build that commits a new release starts, its renames begin (the first
    /// new name in the city folder or its web folder), end (catalog.json replaced: a new inode) and the build
    /// exits, by watching the folder while it runs; the median of three builds.
    static func timeline(_ f: ReleaseFixture, variants: [[ReleaseFixture.Place]], contentOf: [String]) throws
        -> (renamesStart: Double, renamesEnd: Double, total: Double)
    {
        func names() -> Set<String> {
            let fm = FileManager.default
            let city = (try? fm.contentsOfDirectory(atPath: f.cityDir.path)) ?? []
            let web = (try? fm.contentsOfDirectory(atPath: f.cityDir.appendingPathComponent("web").path)) ?? []
            return Set(city.filter { !$0.hasPrefix(".") } + web.map { "web/" + $0 })
        }
        func catalogInode() -> UInt64? {
            (try? FileManager.default.attributesOfItem(atPath: f.catalog.path))?[.systemFileNumber] as? UInt64
        }
        var starts: [Double] = [], ends: [Double] = [], totals: [Double] = []
        for _ in 0..<3 {
            let before = Self.inspect(f)
            try f.write(variants[before.contentSha256 == contentOf[1] ? 0 : 1])
            let oldNames = names(), oldCatalog = catalogInode()
            var start: Double?, end: Double?
            let clock = ContinuousClock()
            let began = clock.now
            let (_, status) = try Self.runAndKill(f, delay: nil, keep: 1) { t in
                if start == nil, !names().subtracting(oldNames).isEmpty { start = t }
                if end == nil, catalogInode() != oldCatalog { end = t }
            }
            totals.append(Self.seconds(clock.now - began))
            #expect(status == 0)
            if let start, let end { starts.append(start); ends.append(end) }
        }
        #expect(starts.count == 3, "the renames were not seen in every timing build")
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return (median(starts), median(ends), median(totals))
    }

    /// Where a kill landed, from the state it left: before the renames (nothing referenced changed), during
    /// them (new versioned files not yet referenced, or the catalog one rename behind), or after them (the
    /// release committed and the catalog current, the build killed while it pruned or wrote its reports).
    enum Phase: String, CaseIterable { case before, during, after }

    static func phase(before: Inspection, after: Inspection) -> Phase {
        if after.orphans > 0 || after.catalogLags { return .during }
        return after.manifestBytes == before.manifestBytes ? .before : .after
    }

    @Test func killedBuildsLeaveOutputsBeforeOrAfter() throws {
        let f = try ReleaseFixture()
        let variants = [ReleaseFixture.base, ReleaseFixture.plusOne]
        // The content hash of each variant, from reference builds into their own folders.
        var contentOf: [String] = []
        for places in variants {
            let reference = try ReleaseFixture(places: places)
            #expect(try CLIRunner.run(reference.buildArguments()).status == 0)
            contentOf.append(Self.json(reference.manifest.path)?["contentSha256"] as? String ?? "")
        }
        #expect(contentOf[0] != contentOf[1] && !contentOf[0].isEmpty)
        _ = try Self.runAndKill(f, delay: nil, keep: 1)

        // When an uncached build that commits (with the step delay) renames, to aim a third of the kills before
        // the renames, a third during them and a third after them.
        let (renamesStart, renamesEnd, duration) = try Self.timeline(f, variants: variants, contentOf: contentOf)
        #expect(renamesStart < renamesEnd && renamesEnd < duration, "\(renamesStart) \(renamesEnd) \(duration)")
        #expect(Self.inspect(f).problems.isEmpty)

        let seed = UInt64(ProcessInfo.processInfo.environment["CITYPACK_KILL_SEED"] ?? "") ?? 20_261_122
        var random = SplitMix64(seed: seed)
        var rounds = 0
        var kills = 0, lags = 0, orphanStates = 0, unchanged = 0, advanced = 0, completions = 0, leftoversRemoved = 0
        var killsWithLeftovers = 0
        var phases: [Phase: Int] = [:]
        // At least 60 kills, and on until each phase has 3 (the window after the renames is a few milliseconds:
        // on a loaded machine a third of 60 aimed kills may not be enough to land there).
        func short() -> Bool { Phase.allCases.contains { (phases[$0] ?? 0) < 3 } }
        while (kills < 60 || short()) && rounds < 240 {
            let round = rounds
            rounds += 1
            // Always the other content than the current release, so every build has something to commit.
            let before = Self.inspect(f)
            let variant = before.contentSha256 == contentOf[1] ? 0 : 1
            try f.write(variants[variant])
            // Aimed in turn before the renames, during them and after them (until the build exits).
            let delay: Double =
                switch round % 3 {
                case 0: random.unit() * renamesStart
                case 1: renamesStart + random.unit() * (renamesEnd - renamesStart)
                default: renamesEnd + random.unit() * (duration - renamesEnd)
                }
            let (killed, status) = try Self.runAndKill(f, delay: delay, keep: 1)
            let after = Self.inspect(f)
            #expect(after.problems.isEmpty, "round \(round) (seed \(seed), kill after \(delay) s): \(after.problems)")
            // manifest.json is exactly as before, or the release of this round's content.
            if after.manifestBytes == before.manifestBytes {
                unchanged += 1
            } else {
                advanced += 1
                #expect(after.contentSha256 == contentOf[variant], "round \(round): manifest.json holds other content")
                #expect(after.dataVersion == (before.dataVersion ?? 0) + 1, "round \(round): version \(String(describing: after.dataVersion))")
            }
            guard killed else {
                completions += 1
                #expect(status == 0, "round \(round): build failed with \(status)")
                continue
            }
            kills += 1
            phases[Self.phase(before: before, after: after), default: 0] += 1
            if after.catalogLags { lags += 1 }
            if after.orphans > 0 { orphanStates += 1 }
            // The next build (the same inputs, as a CI retry) runs to the end: it must remove every leftover of the
            // killed one, bring the catalog up to date, and leave a folder whose every listed file verifies.
            let leftovers = after.hiddenNames
            if !leftovers.isEmpty || after.orphans > 0 { killsWithLeftovers += 1 }
            let (_, nextStatus) = try Self.runAndKill(f, delay: nil, keep: 1, cached: true)
            #expect(nextStatus == 0, "round \(round): the build after the kill failed with \(nextStatus)")
            let repaired = Self.inspect(f)
            #expect(repaired.problems.isEmpty, "round \(round): after the next build: \(repaired.problems)")
            let fm = FileManager.default
            for name in leftovers {
                let path = f.output.appendingPathComponent(name).path
                #expect(!fm.fileExists(atPath: path), "round \(round) (seed \(seed), kill after \(delay) s): \(name) of the killed build survived the next build")
            }
            leftoversRemoved += leftovers.filter { !fm.fileExists(atPath: f.output.appendingPathComponent($0).path) }.count
            #expect(repaired.hiddenNames.isEmpty, "round \(round): hidden files after the next build: \(repaired.hiddenNames)")
            #expect(repaired.orphans == 0 && !repaired.catalogLags, "round \(round): after the next build: \(repaired)")
            #expect(repaired.contentSha256 == contentOf[variant], "round \(round): the next build holds other content")
            let verify = try CLIRunner.run(["verify", f.catalog.path])
            #expect(verify.status == 0, "round \(round): citypack verify after the next build:\n\(verify.stdout)\(verify.stderr)")
        }
        let phaseText = Phase.allCases.map { "\($0.rawValue) \(phases[$0] ?? 0)" }.joined(separator: ", ")
        print(
            "kill test (seed \(seed)): uncached build \(String(format: "%.3f", duration)) s, renames at "
                + "\(String(format: "%.3f", renamesStart))–\(String(format: "%.3f", renamesEnd)) s; kills landed \(phaseText); "
                + "\(rounds) builds, \(kills) killed, \(completions) completed before the kill; "
                + "manifest.json unchanged \(unchanged), advanced \(advanced); catalog one rename behind \(lags), "
                + "unreferenced new versioned files \(orphanStates); kills that left files \(killsWithLeftovers), "
                + "hidden leftovers removed by the next build \(leftoversRemoved); every next build verified")
        #expect(kills >= 50, "only \(kills) builds were killed")
        // The test proves something about every moment only if kills landed in each phase.
        for phase in Phase.allCases {
            #expect((phases[phase] ?? 0) >= 3, "only \(phases[phase] ?? 0) kills landed \(phase.rawValue) the renames (\(phaseText))")
        }
    }
}
