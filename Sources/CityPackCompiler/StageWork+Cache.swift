import CityPackCache
import CityPackDiagnostics
import CityPackEmit
import CityPackIngest
import CityPackSupport
import Foundation

/// The build cache of the stages (StageWork.swift has the stages): one wrapper, ``cached(_:key:records:decode:encode:accept:run:)``,
/// caches any step, under a key made from what the step declares (``key(_:inputs:)``): the plan's inputs of its
/// stage (``Stage/inputs``, resolved by ``add(_:to:)``) and the settings it reads (``settings(of:)``).
extension StageWork {
    // MARK: keys

    /// The key of `entry` over `inputs`, with what every entry depends on: the tool, the pack and cache formats
    /// and the bag's settings.
    func key(_ entry: String, inputs: [CacheInput]) -> CacheKey {
        var k = CacheKey(entry)
        k.add("bag", StageCache.bagSettings(bag))
        for input in inputs { add(input, to: &k) }
        return k
    }

    /// Adds what `input` is made of: a source by its name and content, the profile by its files' content, a
    /// product of an earlier stage by that stage's key, settings by every stored property.
    func add(_ input: CacheInput, to k: inout CacheKey) {
        switch input {
        case .artifact(.source(let path)):
            k.add("source", display(path))
            k.addContent(of: path)
        case .artifact(.templateCopy(let templates)):
            k.add("template copy")
            if let folder = templates.folder { k.addContent(of: folder) } else { k.add(templates.builtInKey ?? "") }
        case .artifact(.profile):
            k.add("profile")
            if let key = profileSource.builtInKey {
                k.add(key)
            } else {
                for file in ["categories.json", "synonyms.json"] { k.addContent(of: profileSource.path(file)) }
            }
        case .artifact(let product):
            k.add("product \(product)", keys[product]?.hex ?? "none")
        case .cityFile:
            k.addContent(of: city.file)
            k.add("city directory", city.directory)
        case .value(let label, let value):
            k.add(label, value)
        case .fields(let label, let value, let skipping):
            k.addFields(of: value, label: label, skipping: skipping)
        }
    }

    /// The settings a stage reads besides its declared inputs (city file values, build options).
    func settings(of kind: StageKind) -> [CacheInput] {
        switch kind {
        case .ingestOSM:
            [.fields("bbox", city.bbox), .value("bbox location", "\(Compiler.keyLocation("bbox", in: city.file))"),
             .fields("limits", city.limits)]
        case .ingestGTFS: [.fields("limits", city.limits)]
        case .ingestEditorial, .ingestCopy:
            [.value("default locale", city.defaultLocale), .fields("locales", city.locales)]
        case .validate: [.cityFile, .value("today", "\(today)")]
        case .emit(let outputDirectory):
            [.cityFile, .value("today", "\(today)"), .fields("source date epoch", plan.options.sourceDateEpoch as Any),
             .value("output", outputDirectory), .fields("release", release, skipping: Self.releaseNotInKey)]
        }
    }

    /// Release options that are not in the emit key: `reuse` is the cache itself.
    static let releaseNotInKey: Set<String> = ["reuse"]

    /// The key of `stage`: its kind, its declared inputs and its settings.
    func key(of stage: Stage) -> CacheKey {
        key(stage.kind.id, inputs: stage.inputs.map(CacheInput.artifact) + settings(of: stage.kind))
    }

    /// Where the category profile is read from (``CityPackIngest/TemplatePOIProfile/load(templates:synonyms:)``): the
    /// city's `profile:` folder, else the templates.
    var profileSource: TemplateSource {
        city.profile.map(TemplateSource.folder) ?? plan.templates ?? .folder(".")
    }

    /// The build date the stages judge with.
    var today: (year: Int, month: Int, day: Int) {
        plan.options.buildDate ?? CivilDate.utc(secondsSince1970: Compiler.wallClockOrEpoch(plan.options))
    }

    /// The release options as the emit stage uses them (the city file's `keep_versions:` unless given).
    var release: EmitOptions {
        var release = plan.options.release
        if !release.keepVersionsExplicit, let keep = city.keepVersions { release.keepVersions = keep }
        return release
    }

    // MARK: the wrapper

    /// Runs one cached step: loads `entry` for `key` (its findings replayed into the bag, its value decoded and
    /// handed to `accept`, which may still refuse it), else runs `run` (recording its findings when `records`)
    /// and keeps what it produced for ``flushCache()``. Without a cache, only runs `run`.
    /// - Parameters:
    ///   - run: the step; returns its counts and its value (nil: nothing to store).
    /// - Returns: the counts, from the cache or from `run`.
    mutating func cached<T>(
        _ entry: String, key: (StageWork) -> CacheKey, records: Bool = true,
        decode: (inout CacheReader) throws(CacheReader.Malformed) -> T, encode: @escaping (inout CacheWriter, T) -> Void,
        accept: (inout StageWork, T) -> Bool, run: (inout StageWork) -> (counts: [StageCount: Int], value: T?)
    ) -> [StageCount: Int] {
        guard let cache else { return run(&self).counts }
        let k = key(self)
        if let hit = cache.load(entry, key: k, decode: { r throws(CacheReader.Malformed) in
            (try r.events(), try r.counts(), try decode(&r))
        }) {
            if accept(&self, hit.2) {
                bag.replay(hit.0)
                cachedEntries.append(entry)
                return hit.1
            }
        }
        if records { bag.startRecording() }
        let (counts, value) = run(&self)
        let events = records ? bag.stopRecording() : []
        // Not kept when the step failed to read or write something (an I/O failure may not happen again).
        let failed = events.contains { if case .report(let d) = $0 { d.code == Rules.packIOFailure.code } else { false } }
        if let value, !failed {
            var payload = CacheWriter()
            payload.events(events)
            payload.counts(counts)
            encode(&payload, value)
            pendingStores.append((entry, k, payload.bytes))
        }
        return counts
    }

    /// Runs a cached step whose value may never be needed (``Lazy``): the cache keeps two entries under the step's
    /// key, `entry` (the findings, the counts and `Facts`, what later stages ask for eagerly) and `valueEntry` (the
    /// value). A hit loads the first and only checks the second's header (``CacheFile/holds(_:scope:name:key:)``):
    /// the value is decoded when first asked for, which an unchanged rebuild never does. Should it then fail its
    /// checks, `remake` makes it again from the sources (their findings were already replayed, so it reports
    /// nowhere). Without a cache, only runs `run`.
    /// - Parameters:
    ///   - run: the step; returns its counts and the value and facts to keep (nil: nothing to keep).
    /// - Returns: the counts, and on a hit the facts and the value to come.
    mutating func cachedLater<Facts, Value: Sendable>(
        _ entry: String, valueEntry: String,
        facts decodeFacts: (inout CacheReader) throws(CacheReader.Malformed) -> Facts,
        value decodeValue: @escaping @Sendable (inout CacheReader) throws(CacheReader.Malformed) -> Value,
        remake: @escaping @Sendable () -> Value,
        encodeFacts: (inout CacheWriter, Facts) -> Void, encodeValue: (inout CacheWriter, Value) -> Void,
        run: (inout StageWork) -> (counts: [StageCount: Int], kept: (facts: Facts, value: Value)?)
    ) -> (counts: [StageCount: Int], hit: (facts: Facts, value: Lazy<Value>)?) {
        guard let cache else { return (run(&self).counts, nil) }
        let key = stageKey
        if CacheFile.holds(cache.path(valueEntry), scope: cache.cityID, name: valueEntry, key: key.digest),
            let hit = cache.load(entry, key: key, decode: { r throws(CacheReader.Malformed) in
                (try r.events(), try r.counts(), try decodeFacts(&r))
            })
        {
            bag.replay(hit.0)
            cachedEntries.append(entry)
            let later = Lazy<Value>(later: { [cache] in
                cache.load(valueEntry, key: key, quiet: true, decode: decodeValue) ?? remake()
            })
            return (hit.1, (hit.2, later))
        }
        bag.startRecording()
        let (counts, kept) = run(&self)
        let events = bag.stopRecording()
        // Not kept when a file could not be read (an I/O failure may not happen again).
        let failed = events.contains { if case .report(let d) = $0 { d.code == Rules.packIOFailure.code } else { false } }
        guard let kept, !failed else { return (counts, nil) }
        var head = CacheWriter()
        head.events(events)
        head.counts(counts)
        encodeFacts(&head, kept.facts)
        var value = CacheWriter()
        encodeValue(&value, kept.value)
        // The value first: a head without it is no hit.
        pendingStores.append((valueEntry, key, value.bytes))
        pendingStores.append((entry, key, head.bytes))
        return (counts, nil)
    }

    /// Writes the entries the stages produced, once the build is over and only when it has no errors: a build
    /// with errors writes nothing into the output folder, the cache included (the entries of the last good build
    /// stay, and their stages still load from them once the error is fixed). The sources' stat facts go with them.
    mutating func flushCache() {
        defer { pendingStores = [] }
        SourceLineMemo.use(
            outputDirectory: cache == nil ? nil : plan.options.outputDirectory, cityID: plan.city.id, writable: !bag.hasErrors)
        guard let cache, !bag.hasErrors else { return }
        for (entry, key, payload) in pendingStores { cache.store(entry, key: key, payload: payload) }
        let facts = DigestMemo.facts
        if facts != loadedFacts {
            var w = CacheWriter()
            w.facts(facts)
            cache.store(Self.factsEntry, key: CacheKey(Self.factsEntry), payload: w.bytes)
        }
    }

    /// The entry of the sources' stat facts (``DigestMemo``).
    static let factsEntry = "source-facts"

    /// Reads the stat facts the last build stored, for ``DigestMemo`` (before anything is hashed).
    static func loadFacts(_ cache: StageCache) -> [DigestMemo.Fact] {
        let facts = cache.load(factsEntry, key: CacheKey(factsEntry)) { r throws(CacheReader.Malformed) in try r.facts() } ?? []
        DigestMemo.adopt(facts)
        return facts
    }
}

extension CacheWriter {
    mutating func facts(_ facts: [DigestMemo.Fact]) {
        array(facts) { w, f in
            w.fixed(f.device)
            w.fixed(f.inode)
            w.fixed(f.size)
            w.fixed(f.modified)
            w.fixed(f.changed)
            w.fixed(f.hashedAt)
            w.int(f.digest.bytes)
            w.string(f.digest.sha256)
        }
    }
}

extension CacheReader {
    mutating func facts() throws(Malformed) -> [DigestMemo.Fact] {
        try array { r throws(Malformed) in
            DigestMemo.Fact(
                device: try r.fixed(), inode: try r.fixed(), size: try r.fixed(), modified: try r.fixed(), changed: try r.fixed(),
                hashedAt: try r.fixed(), digest: FileDigest(bytes: try r.int(), sha256: try r.string()))
        }
    }
}
