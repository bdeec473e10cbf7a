import CityPackTestSupport
import Foundation
import Testing

/// The build cache (`<output>/.cache/<city>/`, issue 24): a build that loads stages from the cache leaves exactly
/// the files a build without it leaves — pack, manifests, catalog, copy tables, web flavour and reports — after
/// every kind of edit; damaged or foreign entries are ignored with a note; `--no-cache` neither reads nor writes.
@Suite(.serialized) struct BuildCacheTests {
    /// One edit between two builds.
    struct Edit: CustomStringConvertible, Sendable {
        var description: String
        var apply: @Sendable (_ work: URL) throws -> Void
    }

    /// Every file under `folder` by relative path, but the cache and `build-stats.json` (it holds times); the
    /// signatures in JSON files are blanked (see below).
    static func snapshot(_ folder: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        for file in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            if file.hasPrefix(".cache") || file.hasSuffix("build-stats.json") || file == ".lock" { continue }
            guard var data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else { continue }
            // Ed25519 signatures here are randomised: two signings of the same document differ in their bytes.
            if file.hasSuffix(".json"), let text = String(data: data, encoding: .utf8) {
                data = Data(text.replacingOccurrences(of: #""signature" : "[^"]*""#, with: #""signature" : "…""#,
                    options: .regularExpression).utf8)
            }
            out[file] = data
        }
        return out
    }

    static func differing(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// Replaces the first occurrence of `old` in `file` (under `work`).
    static func replace(_ file: String, _ old: String, _ new: String, in work: URL) throws {
        let url = work.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let range = try #require(text.range(of: old), "\(old) not in \(file)")
        try text.replacingCharacters(in: range, with: new).write(to: url, atomically: false, encoding: .utf8)
    }

    /// Replaces the line of `file` (under `work`) that starts with `prefix`.
    static func replaceLine(_ file: String, prefix: String, with line: String, in work: URL) throws {
        let url = work.appendingPathComponent(file)
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let i = try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "no line starting with \(prefix) in \(file)")
        lines[i] = line
        try lines.joined(separator: "\n").write(to: url, atomically: false, encoding: .utf8)
    }

    /// Adds a small editorial folder and a copy folder to the city in `work/city`, so there is a row and a string
    /// to change.
    static func addEditorialAndCopy(_ work: URL, locale: String = "en") throws {
        let city = work.appendingPathComponent("city")
        let editorial = city.appendingPathComponent("editorial"), copy = city.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: editorial, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try "card_id,icon,home,title\ntoilet,toilet,1,Toilets\n".write(to: editorial.appendingPathComponent("cards.csv"), atomically: false, encoding: .utf8)
        try "situation_id,card_id,title,body\ntoilet_now,toilet,I need a toilet now,The closest toilets are listed first.\n"
            .write(to: editorial.appendingPathComponent("situations.csv"), atomically: false, encoding: .utf8)
        try "action_id,situation_id,kind,target,label,text\ntoilet_now_nearby,toilet_now,nearby,toilet,Show nearby toilets,\n"
            .write(to: editorial.appendingPathComponent("actions.csv"), atomically: false, encoding: .utf8)
        try "app.welcome: \"Welcome to {city}\"\n".write(to: copy.appendingPathComponent("\(locale).yaml"), atomically: false, encoding: .utf8)
    }

    static let editorialRow = Edit(description: "editorial CSV row") { try replace("city/editorial/cards.csv", "1,Toilets", "1,Toilets and WCs", in: $0) }
    static let copyString = Edit(description: "copy string") { try replace("city/copy/en.yaml", "Welcome to {city}", "Welcome to {city}!", in: $0) }
    static let unchanged = Edit(description: "unchanged") { _ in }

    /// An OSM source changed in its bytes: a comment after the XML, an empty gzip member after a `.gz`; a PBF is
    /// touched only (same bytes: the cache must still hold).
    static func changeOSM(_ relative: String) -> Edit {
        Edit(description: "OSM file \(relative)") { work in
            let url = work.appendingPathComponent(relative)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.seekToEnd()
            if relative.hasSuffix(".gz") {
                try handle.write(contentsOf: Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
            } else if relative.hasSuffix(".osm") {
                try handle.write(contentsOf: Data("<!-- edited -->\n".utf8))
            } else {
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(120)], ofItemAtPath: url.path)
            }
        }
    }

    static func touch(_ relative: String) -> Edit {
        Edit(description: "touched \(relative)") { work in
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(180)], ofItemAtPath: work.appendingPathComponent(relative).path)
        }
    }

    static let bbox = Edit(description: "city file bbox") { work in
        let url = work.appendingPathComponent("city/city.yaml")
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let i = try #require(lines.firstIndex { $0.hasPrefix("bbox:") })
        // Shrink the box a little on its east side: every stage that reads the bbox runs again.
        let numbers = lines[i].dropFirst("bbox:".count).trimmingCharacters(in: CharacterSet(charactersIn: " []"))
            .split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        try #require(numbers.count == 4)
        let east = numbers[2] - (numbers[2] - numbers[0]) * 0.05
        lines[i] = "bbox: [\(numbers[0]), \(numbers[1]), \(east), \(numbers[3])]"
        try lines.joined(separator: "\n").write(to: url, atomically: false, encoding: .utf8)
    }

    /// Runs `setUp` into a fresh `work` folder, then builds it and after each edit builds again, once with the cache
    /// and once without (same paths, one after the other), and compares the output trees after every build.
    /// - Returns: the `-v` stage lines of each cached build, for the callers that check what was loaded.
    @discardableResult
    static func compareWithAndWithoutCache(
        _ name: String, edits: [Edit], extra: (URL) -> [String] = { _ in [] }, setUp: (URL) throws -> Void
    ) throws -> [String] {
        let root = try TestPaths.temporaryDirectory("cache-\(name)")
        defer { try? FileManager.default.removeItem(at: root) }
        let work = root.appendingPathComponent("work")
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        func run(cache: Bool) throws -> (snapshots: [[String: Data]], verbose: [String]) {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try setUp(work)
            var snapshots: [[String: Data]] = []
            var verbose: [String] = []
            for edit in [unchanged] + edits {
                try edit.apply(work)
                let r = try CLIRunner.runBinary(
                    ["build", work.appendingPathComponent("city").path, "--output", work.appendingPathComponent("out").path, "-v",
                     "--format", "json"] + extra(work) + (cache ? [] : ["--no-cache"]), environment: env)
                #expect(r.status == 0 || r.status == 1, "\(name) after \(edit): \(r.stderr.suffix(2000))")
                snapshots.append(snapshot(work.appendingPathComponent("out")))
                verbose.append(r.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }.joined(separator: "\n"))
                #expect(cache == FileManager.default.fileExists(atPath: work.appendingPathComponent("out/.cache").path))
            }
            return (snapshots, verbose)
        }
        let cached = try run(cache: true)
        let clean = try run(cache: false)
        for (i, edit) in ([unchanged] + edits).enumerated() {
            let diff = differing(cached.snapshots[i], clean.snapshots[i])
            // The first differing file's lines that differ, to say what went stale.
            let detail = diff.first.map { file -> String in
                func lines(_ d: [String: Data]) -> [String] { String(decoding: d[file] ?? Data(), as: UTF8.self).components(separatedBy: "\n") }
                let a = lines(cached.snapshots[i]), b = lines(clean.snapshots[i])
                return "\n\(file): cached only: \(a.filter { !b.contains($0) }.prefix(5)); clean only: \(b.filter { !a.contains($0) }.prefix(5))"
            } ?? ""
            #expect(diff.isEmpty, "\(name), build \(i) (after \(edit)): outputs differ with the cache: \(diff)\(detail)")
            #expect(cached.snapshots[i].keys.contains { $0.hasSuffix("manifest.json") } || cached.snapshots[i].keys.contains { $0.hasSuffix("report.json") })
        }
        return cached.verbose
    }

    /// The rule examples' city (OSM XML + a GTFS folder) with editorial and copy: every kind of edit, the template
    /// and profile included (a templates copy passed with `--templates`).
    @Test func everyKindOfEditOnTheExampleCity() throws {
        let templates = TestPaths.root.appendingPathComponent("templates")
        let verbose = try Self.compareWithAndWithoutCache(
            "example",
            edits: [
                Self.unchanged, Self.editorialRow, Self.copyString, Self.changeOSM("city/map.osm"),
                Edit(description: "GTFS stop name") { try Self.replace("city/gtfs/stops.txt", "Casino", "Casino Square", in: $0) },
                Edit(description: "template copy string") { work in
                    try Self.replace("templates/copy/en.yaml", "\"Download {city}", "\"Get {city}", in: work)
                },
                Edit(description: "profile synonyms") { work in
                    try Self.replace("templates/synonyms.json", "\"en\": [\"toilet\"", "\"en\": [\"potty\", \"toilet\"", in: work)
                },
                Self.bbox,
            ],
            extra: { ["--templates", $0.appendingPathComponent("templates").path] }
        ) { work in
            try FileManager.default.copyItem(
                at: TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base"), to: work.appendingPathComponent("city"))
            try Self.addEditorialAndCopy(work)
            try FileManager.default.copyItem(at: templates, to: work.appendingPathComponent("templates"))
        }
        // The unchanged rebuild loads every stage; the copy edit runs emit but none of the reading of OSM or GTFS.
        #expect(verbose[1].contains("(cached: ingestOSM)") && verbose[1].contains("(cached: emit)"), "\(verbose[1])")
        #expect(verbose[3].contains("(cached: ingestGTFS)") && !verbose[3].contains("(cached: emit)"), "\(verbose[3])")
    }

    /// The real cities the end-to-end tests build (OSM XML, gzip'd XML and PBF; Milan with its GTFS feed): clean
    /// and cached builds agree after an unchanged rebuild, an editorial row, a copy string, a change to the OSM file
    /// (a touch for PBF), a touched feed and a smaller bbox.
    @Test(.needsSharedData, arguments: [
        "osm/milan-2015.osm.gz+gtfs/milan-atm-2015.zip", "osm/liechtenstein-2024.osm.pbf", "osm/liechtenstein-2024.osm.gz",
        "osm/monaco-2021.osm", "osm/monaco-2021.osm.pbf", "osm/andorra-2021.osm.pbf", "osm/peterhof-api-export-2011.osm",
        "osm/portland-central-2015.osm.gz",
    ])
    func realCitiesAgreeWithAndWithoutTheCache(sources: String) throws {
        let data = try #require(TestPaths.sharedData)
        let parts = sources.split(separator: "+").map(String.init)
        let osmName = (parts[0] as NSString).lastPathComponent
        let feedName = parts.count > 1 ? (parts[1] as NSString).lastPathComponent : nil
        var edits = [Self.unchanged, Self.editorialRow, Self.copyString, Self.changeOSM("src/\(osmName)")]
        if let feedName { edits.append(Self.touch("src/\(feedName)")) }
        edits.append(Self.bbox)
        let verbose = try Self.compareWithAndWithoutCache(osmName, edits: edits) { work in
            let src = work.appendingPathComponent("src")
            try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
            var arguments = ["init", work.appendingPathComponent("city").path, "--id", "c", "--locales", "en,it"]
            for (flag, part) in zip(["--osm", "--gtfs"], parts) {
                let copy = src.appendingPathComponent((part as NSString).lastPathComponent)
                try FileManager.default.copyItem(at: data.appendingPathComponent(part), to: copy)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
                arguments += [flag, copy.path]
            }
            let made = try CLIRunner.runBinary(arguments)
            #expect(made.status == 0, "\(made.stderr)")
            try Self.addEditorialAndCopy(work)
        }
        #expect(verbose[1].contains("(cached: emit)"), "unchanged rebuild: \(verbose[1])")
        #expect(verbose[2].contains("(cached: ingestOSM)") && verbose[2].contains("(cached: validatePOIs"), "editorial row: \(verbose[2])")
    }

    /// The example city built once with the cache, into `work/out`.
    static func builtExample(_ work: URL, id: String = "example") throws -> (city: URL, out: URL) {
        let city = work.appendingPathComponent("city-\(id)"), out = work.appendingPathComponent("out")
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base"), to: city)
        if id != "example" { try replace("city-\(id)/city.yaml", "id: example", "id: \(id)", in: work) }
        return (city, out)
    }

    static func build(_ city: URL, _ out: URL, _ extra: [String] = []) throws -> CLIRunner.Result {
        try CLIRunner.runBinary(
            ["build", city.path, "--output", out.path, "--format", "json", "--max-per-rule", "0"] + extra,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    }

    static func cacheNotes(_ result: CLIRunner.Result) throws -> [String] {
        let diagnostics = (try CLIRunner.json(result.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        return diagnostics.filter { $0["code"] as? String == "pack.cache_ignored" }.compactMap { $0["message"] as? String }
    }

    /// A damaged entry (a flipped payload byte, a truncated file, bad magic, another version) or another city's
    /// entry is never trusted: a `pack.cache_ignored` note, the stage runs, the outputs equal a clean build's, and
    /// the entry is replaced (the next build loads it without a note). An entry with another key is an earlier
    /// result and is replaced silently.
    @Test func damagedEntriesAreIgnoredWithANote() throws {
        let work = try TestPaths.temporaryDirectory("cache-damaged")
        defer { try? FileManager.default.removeItem(at: work) }
        let (city, out) = try Self.builtExample(work)
        let clean = try Self.build(city, out, ["--no-cache"])
        #expect(clean.status == 0, "\(clean.stderr)")
        let reference = Self.snapshot(out).filter { !$0.key.hasSuffix("report.json") && !$0.key.hasSuffix("report.html") }
        #expect(try Self.build(city, out).status == 0)
        let entries = out.appendingPathComponent(".cache/example")
        // The entries, the sources' stat facts, and the emit step's reusable pieces (EmitReuse) in a folder of their own.
        let all = try FileManager.default.contentsOfDirectory(atPath: entries.path).sorted()
        #expect(all.contains("source-facts.entry") && all.contains("report-html.entry"))
        // Beside the stages' entries: the page and the excerpt lines of the end of the build (their own tests).
        let names = all.filter { !["emit", "source-facts.entry", "report-html.entry", "source-lines.entry"].contains($0) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: entries.appendingPathComponent("emit").path).sorted()
            == ["base.entry", "sizes.entry", "web.entry"])
        // emit-catalog: the catalog last seen listing the city; ingestGTFS-feeds and ingestOSM-result: what the
        // ingest stages read, apart from their findings (decoded only when a later stage asks); synonyms: the
        // parsed synonyms.json.
        #expect(names == [
            "emit-catalog.entry", "emit.entry", "ingestGTFS-feeds.entry", "ingestGTFS.entry", "ingestOSM-result.entry",
            "ingestOSM.entry", "synonyms.entry", "validateGTFS.entry", "validatePOIs.entry",
        ], "\(names)")
        let osmEntry = entries.appendingPathComponent("ingestOSM.entry")
        let good = try Data(contentsOf: osmEntry)

        // Another city's entry, built into the same output folder.
        let (other, _) = try Self.builtExample(work, id: "other")
        try Self.replace("city-other/map.osm", "</osm>", "<node id=\"999\" lat=\"43.73\" lon=\"7.41\"/></osm>", in: work)
        #expect(try Self.build(other, out).status == 0)
        let foreign = try Data(contentsOf: out.appendingPathComponent(".cache/other/ingestOSM.entry"))

        var flipped = good
        flipped[flipped.count - 10] ^= 0x5A
        var badVersion = good
        badVersion[8] = 99
        let damaged: [(String, Data, String)] = [
            ("flipped byte", flipped, "payload SHA-256 mismatch"),
            ("truncated", good.prefix(good.count - 100), "truncated"),
            ("cut in the header", good.prefix(30), "truncated"),
            ("bad magic", Data("not a cache entry at all".utf8) + good, "not a CityPack cache entry"),
            ("other version", badVersion, "cache format 99"),
            ("another city's entry", foreign, "an entry of city 'other'"),
        ]
        for (what, bytes, reason) in damaged {
            try bytes.write(to: osmEntry)
            let r = try Self.build(city, out)
            #expect(r.status == 0, "\(what): \(r.stderr)")
            let notes = try Self.cacheNotes(r)
            #expect(notes.count == 1 && notes.first?.contains(reason) == true, "\(what): \(notes)")
            let now = Self.snapshot(out).filter { !$0.key.hasSuffix("report.json") && !$0.key.hasSuffix("report.html") && !$0.key.hasPrefix("other") && $0.key != "catalog.json" }
            #expect(Self.differing(now, reference.filter { $0.key != "catalog.json" }).isEmpty, "\(what)")
            // Replaced: the next build trusts it again.
            let again = try Self.build(city, out)
            #expect(try Self.cacheNotes(again).isEmpty, "\(what): \(again.stdout.prefix(500))")
        }

        // An entry with another key (an earlier result): no note; the stage runs and replaces it.
        try Self.replace("city-example/map.osm", "</osm>", "<!-- edited --></osm>", in: work)
        let edited = try Self.build(city, out, ["-v"])
        #expect(try Self.cacheNotes(edited).isEmpty)
        #expect(!edited.stderr.contains("(cached: ingestOSM)") && edited.stderr.contains("(cached: ingestGTFS)"), "\(edited.stderr)")
    }

    /// What the ingest stages read (the GTFS feeds, the OSM POIs) is decoded from the cache only when a later stage
    /// asks for it: an unchanged rebuild never reads those entries' payloads (damaged ones go unnoticed and cost
    /// nothing), and a rebuild whose validation and emit run (a city file edit) finds them damaged and reads the
    /// sources again, silently (their findings were replayed), with the outputs of a build without the cache.
    @Test func readSourcesComeFromTheCacheOnlyWhenAsked() throws {
        let work = try TestPaths.temporaryDirectory("cache-lazy-feeds")
        defer { try? FileManager.default.removeItem(at: work) }
        let (city, out) = try Self.builtExample(work)
        let reference = work.appendingPathComponent("reference")
        #expect(try Self.build(city, out).status == 0)
        #expect(try Self.build(city, reference, ["--no-cache"]).status == 0)
        let feeds = out.appendingPathComponent(".cache/example/ingestGTFS-feeds.entry")
        var bytes = try Data(contentsOf: feeds)
        bytes[bytes.count - 10] ^= 0x5A
        try bytes.write(to: feeds)
        let osm = out.appendingPathComponent(".cache/example/ingestOSM-result.entry")
        var read = try Data(contentsOf: osm)
        read[read.count - 10] ^= 0x5A
        try read.write(to: osm)

        // The parsed synonyms, damaged too: synonyms.json is parsed again, silently, and the entry made again.
        let synonyms = out.appendingPathComponent(".cache/example/synonyms.entry")
        var parsed = try Data(contentsOf: synonyms)
        parsed[parsed.count - 3] ^= 0x5A
        try parsed.write(to: synonyms)

        let unchanged = try Self.build(city, out, ["-v"])
        #expect(unchanged.status == 0 && unchanged.stderr.contains("(cached: ingestGTFS)")
            && unchanged.stderr.contains("(cached: ingestOSM)"), "\(unchanged.stderr)")
        #expect(try Self.cacheNotes(unchanged).isEmpty)
        #expect(try Data(contentsOf: feeds) == bytes && Data(contentsOf: osm) == read, "an unchanged rebuild stores nothing new")
        #expect(try Data(contentsOf: synonyms) != parsed, "the synonyms' entry is made again")
        #expect(Self.snapshot(out).filter { !$0.key.hasPrefix("example/report") }
            == Self.snapshot(reference).filter { !$0.key.hasPrefix("example/report") })

        // A new name in the city file: the feeds' key stays, validation and emit run and ask for the feeds.
        try Self.replace("city-example/city.yaml", "name:", "name: Renamed #", in: work)
        let edited = try Self.build(city, out, ["-v"])
        #expect(edited.status == 0 && edited.stderr.contains("(cached: ingestGTFS)"), "\(edited.stderr)")
        #expect(try Self.cacheNotes(edited).isEmpty, "a damaged feeds entry met late is read again without a note")
        #expect(try Self.build(city, reference, ["--no-cache"]).status == 0)
        #expect(Self.snapshot(out).filter { !$0.key.hasPrefix("example/report") }
            == Self.snapshot(reference).filter { !$0.key.hasPrefix("example/report") })
    }

    /// The emit step's reusable pieces (the base database, the web parts, the sizes) are checked too: damaged, they
    /// give `pack.cache_ignored` notes naming them, are made again, and the outputs equal a build without the cache.
    @Test func damagedEmitPiecesAreIgnoredWithANote() throws {
        let work = try TestPaths.temporaryDirectory("cache-emit-pieces")
        defer { try? FileManager.default.removeItem(at: work) }
        let (city, out) = try Self.builtExample(work)
        let reference = work.appendingPathComponent("reference")
        #expect(try Self.build(city, out).status == 0)
        #expect(try Self.build(city, reference, ["--no-cache"]).status == 0)
        let pieces = out.appendingPathComponent(".cache/example/emit")
        // The web parts made from the base, damaged; emit runs again on the same base (its manifest removed).
        var web = try Data(contentsOf: pieces.appendingPathComponent("web.entry"))
        web[web.count / 2] ^= 0x5A
        try web.write(to: pieces.appendingPathComponent("web.entry"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("example/manifest.json"))
        try FileManager.default.removeItem(at: reference.appendingPathComponent("example/manifest.json"))
        var notes = try Self.cacheNotes(try Self.build(city, out))
        #expect(notes.count == 1 && notes[0].contains("payload SHA-256 mismatch"), "\(notes)")
        #expect(try Self.build(city, reference, ["--no-cache"]).status == 0)
        #expect(Self.snapshot(out).filter { !$0.key.hasPrefix("example/report") } == Self.snapshot(reference).filter { !$0.key.hasPrefix("example/report") })
        // The base under the same key, damaged: an SQL-level edit that keeps the base's key (the build date).
        var base = try Data(contentsOf: pieces.appendingPathComponent("base.entry"))
        base[base.count / 2] ^= 0x5A
        try base.write(to: pieces.appendingPathComponent("base.entry"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("example/manifest.json"))
        try FileManager.default.removeItem(at: reference.appendingPathComponent("example/manifest.json"))
        let rebuilt = try Self.build(city, out)
        notes = try Self.cacheNotes(rebuilt)
        #expect(notes.count == 1 && notes[0].contains("payload SHA-256 mismatch"), "\(notes)")
        #expect(try Self.build(city, reference, ["--no-cache"]).status == 0)
        #expect(Self.snapshot(out).filter { !$0.key.hasPrefix("example/report") } == Self.snapshot(reference).filter { !$0.key.hasPrefix("example/report") })
    }

    /// `--no-cache` writes no cache and reads none: damaged entries give no note and stay as they are.
    @Test func noCacheNeitherReadsNorWrites() throws {
        let work = try TestPaths.temporaryDirectory("cache-off")
        defer { try? FileManager.default.removeItem(at: work) }
        let (city, out) = try Self.builtExample(work)
        #expect(try Self.build(city, out, ["--no-cache"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".cache").path))
        #expect(try Self.build(city, out).status == 0)
        let entries = out.appendingPathComponent(".cache/example")
        let names = try FileManager.default.contentsOfDirectory(atPath: entries.path).filter { $0 != "emit" }
            + ["emit/base.entry", "emit/web.entry"]
        #expect(names.count > 3)
        for name in names { try Data("garbage".utf8).write(to: entries.appendingPathComponent(name)) }
        let r = try Self.build(city, out, ["--no-cache", "-v"])
        #expect(r.status == 0 && !r.stderr.contains("(cached:"), "\(r.stderr)")
        #expect(try Self.cacheNotes(r).isEmpty)
        for name in names { #expect(try Data(contentsOf: entries.appendingPathComponent(name)) == Data("garbage".utf8)) }
        // `check` takes the flag too.
        let checked = try CLIRunner.runBinary(["check", city.path, "--output", out.path, "--no-cache", "--quiet"])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// A release of another city into the same output rewrites `catalog.json`, but not what it says of this city:
    /// this city's next unchanged build loads its emit stage from the cache and leaves every one of its files as
    /// it was (same inodes); a catalog that lost the city is made again without re-running the emit stage.
    @Test func anotherCitysReleaseLeavesThisCityAlone() throws {
        let work = try TestPaths.temporaryDirectory("cache-two-cities")
        defer { try? FileManager.default.removeItem(at: work) }
        let (first, out) = try Self.builtExample(work)
        let (second, _) = try Self.builtExample(work, id: "other")
        #expect(try Self.build(first, out).status == 0)
        func inodes() -> [String: UInt64] {
            let folder = out.appendingPathComponent("example")
            var map: [String: UInt64] = [:]
            for file in FileManager.default.subpaths(atPath: folder.path) ?? [] {
                var st = stat()
                if stat(folder.appendingPathComponent(file).path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
                    map[file] = UInt64(st.st_ino)
                }
            }
            return map.filter { !$0.key.hasPrefix("report.") && $0.key != "build-stats.json" }
        }
        let before = inodes()
        let catalog = out.appendingPathComponent("catalog.json")
        let catalogBefore = try Data(contentsOf: catalog)
        #expect(try Self.build(second, out).status == 0)
        #expect(try Data(contentsOf: catalog) != catalogBefore, "the other city's release is in the catalog")
        let again = try Self.build(first, out, ["-v"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("(cached: emit)"), "\(again.stderr)")
        #expect(inodes() == before, "no file of the city was rewritten")
        let listed = try CLIRunner.json(String(decoding: try Data(contentsOf: catalog), as: UTF8.self))["packs"] as? [[String: Any]]
        #expect(Set((listed ?? []).compactMap { $0["id"] as? String }) == ["example", "other"])
        // The catalog loses the city (edited by hand): the cached build lists it again.
        let catalogWithBoth = try Data(contentsOf: catalog)
        try Data("{}".utf8).write(to: catalog)
        let repaired = try Self.build(first, out, ["-v"])
        #expect(repaired.status == 0 && repaired.stderr.contains("(cached: emit)"), "\(repaired.stderr)")
        #expect(try Data(contentsOf: catalog) == catalogWithBoth)
        #expect(inodes() == before)
    }

    /// Findings replayed from the cache are a clean run's: same order, same text, same JSON and human output.
    @Test func replayedDiagnosticsEqualACleanRun() throws {
        let work = try TestPaths.temporaryDirectory("cache-replay")
        defer { try? FileManager.default.removeItem(at: work) }
        let (city, out) = try Self.builtExample(work)
        // Findings from every stage: a POI without a name, a stop outside the bbox, a copy key with padding.
        try Self.replace("city-example/gtfs/stops.txt", "S2,Casino,43.74,7.42", "S2,Casino,44.74,7.42", in: work)
        let first = try Self.build(city, out)
        let cached = try Self.build(city, out, ["-v"])
        let clean = try Self.build(city, out, ["--no-cache"])
        #expect(cached.stderr.contains("(cached: validatePOIs, validateGTFS)"), "\(cached.stderr)")
        let diagnostics = (try CLIRunner.json(clean.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        #expect(diagnostics.count > 1 && diagnostics.contains { ($0["code"] as? String)?.hasPrefix("gtfs.") == true }, "\(clean.stdout.prefix(800))")
        #expect(cached.stdout == clean.stdout && first.stdout == clean.stdout)
        let human = try CLIRunner.runBinary(["build", city.path, "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        let humanClean = try CLIRunner.runBinary(["build", city.path, "--output", out.path, "--no-cache"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(human.stderr == humanClean.stderr && human.stdout == humanClean.stdout)
    }

    /// A build with errors writes nothing into the output folder, the cache included.
    @Test func buildWithErrorsWritesNoCache() throws {
        let out = try TestPaths.temporaryDirectory("cache-errors")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLIRunner.runBinary(["build", "Tests/Fixtures/diagnostics/city", "--output", out.path, "--quiet"])
        #expect(r.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".cache").path))
    }
}
