import CityPackFormat
import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// A thread-safe counter for concurrent tests.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Hand-picked POIs for search and naming.
let namedPOIs: [TestPOI] = [
    TestPOI(id: 40, lat: 48.2082, lon: 16.3738, category: "cafe", name: "Café Central",
            tags: ["opening_hours": "Mo-Su 08:00-22:00", "wheelchair": "yes"]),
    TestPOI(id: 44, lat: 48.2085, lon: 16.3740, category: "toilet", name: nil, tags: ["fee": "no"]),
    TestPOI(id: 49, lat: 48.2100, lon: 16.3700, category: "pharmacy", name: "Town Hall Pharmacy",
            names: ["en": "Town Hall Pharmacy", "de": "Rathausapotheke", "fr": "Pharmacie de l'Hôtel de Ville"]),
    TestPOI(id: 52, lat: 48.2110, lon: 16.3710, category: "cafe", name: "Kaffeehaus Landtmann",
            names: ["de": "Café Landtmann", "zh-Hant": "蘭特曼咖啡館"]),
    TestPOI(id: 56, lat: 48.2120, lon: 16.3720, category: "cafe", name: nil, names: ["it": "Caffè Nero", "fr": "Café Noir"]),
]

/// Random POIs clustered around a centre, some snapped onto precision-8 cell edges.
func randomPOIs(count: Int, lat: Double, lon: Double, seed: UInt64, firstID: Int64 = 1000) -> [TestPOI] {
    var rng = SplitMix64(seed: seed)
    let size = Geohash.cellSize(precision: 8)
    var out: [TestPOI] = []
    for k in 0..<count {
        var pLat = lat + Double.random(in: -0.01...0.01, using: &rng)
        var pLon = lon + Double.random(in: -0.01...0.01, using: &rng)
        if k % 4 == 0 { pLat = -90 + ((pLat + 90) / size.lat).rounded() * size.lat }
        if k % 6 == 0 { pLon = -180 + ((pLon + 180) / size.lon).rounded() * size.lon }
        if pLon > 180 { pLon -= 360 } else if pLon < -180 { pLon += 360 }
        out.append(TestPOI(id: firstID + Int64(k) * 4, lat: pLat, lon: pLon, category: ["cafe", "toilet", "pharmacy"][k % 3]))
    }
    return out
}

func bruteForce(_ pois: [TestPOI], lat: Double, lon: Double, radius: Double) -> [Int64] {
    pois.compactMap { p -> (Double, Int64)? in
        let d = GreatCircle.distance(lat, lon, p.lat, p.lon)
        return d <= radius ? (d, p.id) : nil
    }.sorted { $0 < $1 }.map(\.1)
}

@Suite struct PackReaderTests {
    /// A pack with the named POIs plus random ones, in both forms.
    private func makePack(extra: [TestPOI] = []) throws -> (dir: URL, db: URL, gz: URL, pois: [TestPOI]) {
        let dir = try TestPack.directory()
        let pois = namedPOIs + extra
        let db = try TestPack.writeDatabase(pois, to: dir.appendingPathComponent("testville.sqlite"))
        let gz = try TestPack.gzip(db, to: dir.appendingPathComponent("testville" + PackSchema.packSuffix))
        return (dir, db, gz, pois)
    }

    @Test func opensBothFormsWithMetaAndCounts() throws {
        let pack = try makePack(extra: randomPOIs(count: 300, lat: 48.21, lon: 16.37, seed: 1))
        for url in [pack.db, pack.gz] {
            let reader = try PackReader.open(url, options: .init(temporaryDirectory: pack.dir))
            defer { reader.close() }
            #expect(reader.meta.cityID == "testville")
            #expect(reader.meta.cityName == "Testville")
            #expect(reader.meta.dataVersion == 7)
            #expect(reader.meta.createdAt == "2026-01-02T03:04:05Z")
            #expect(reader.meta.locales == ["en", "de", "fr"])
            #expect(reader.formatVersion == PackSchema.formatVersion)
            #expect(reader.poiCount == pack.pois.count)
            let counts = try reader.categoryCounts()
            #expect(counts.values.reduce(0, +) == pack.pois.count)
            #expect(counts["toilet"] == pack.pois.filter { $0.category == "toilet" }.count)
            let cafe = try #require(try reader.place(id: 40))
            #expect(cafe.osm == "n10" && cafe.name == "Café Central" && cafe.category == "cafe")
            #expect(cafe.tags == ["opening_hours": "Mo-Su 08:00-22:00", "wheelchair": "yes"])
            #expect(cafe.distanceMetres == nil)
            #expect(try reader.place(id: 41) == nil)
        }
    }

    @Test func compressedPackIsDecompressedToTheGivenDirectoryAndRemovedOnClose() throws {
        let pack = try makePack()
        let cache = pack.dir.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let reader = try PackReader.open(pack.gz, options: .init(temporaryDirectory: cache))
        #expect(reader.databasePath.hasPrefix(cache.path))
        #expect(FileManager.default.fileExists(atPath: reader.databasePath))
        #expect(try FileDigest(path: reader.databasePath).sha256 == (try FileDigest(path: pack.db.path).sha256))
        reader.close()
        #expect(!FileManager.default.fileExists(atPath: reader.databasePath))
        #expect(throws: PackError.closed) { try reader.nearby(lat: 48.2082, lon: 16.3738) }
        reader.close()  // idempotent
        // The original database opened directly is never deleted.
        let direct = try PackReader.open(pack.db)
        direct.close()
        #expect(FileManager.default.fileExists(atPath: pack.db.path))
    }

    @Test(arguments: [
        ("city", 48.21, 16.37), ("antimeridian", -16.5, 179.995), ("antimeridian-west", 52.0, -179.995),
        ("high-latitude", 89.985, 30.0),
    ])
    func nearbyMatchesBruteForce(name: String, lat: Double, lon: Double) throws {
        let extra = randomPOIs(count: 3000, lat: lat, lon: lon, seed: 7)
        let pack = try makePack(extra: extra)
        let reader = try PackReader.open(pack.gz, options: .init(temporaryDirectory: pack.dir))
        defer { reader.close() }
        var rng = SplitMix64(seed: 99)
        var nonEmpty = 0
        for q in 0..<300 {
            let base = extra[Int.random(in: 0..<extra.count, using: &rng)]
            let qLat = q % 3 == 0 ? base.lat : min(90, base.lat + Double.random(in: -0.0003...0.0003, using: &rng))
            var qLon = q % 3 == 0 ? base.lon : base.lon + Double.random(in: -0.0003...0.0003, using: &rng)
            if qLon > 180 { qLon -= 360 } else if qLon < -180 { qLon += 360 }
            let radius = exp(Double.random(in: 0...log(2000), using: &rng))
            let expected = bruteForce(pack.pois, lat: qLat, lon: qLon, radius: radius)
            let got = try reader.nearby(lat: qLat, lon: qLon, radius: radius, limit: 100_000)
            #expect(got.map(\.id) == expected, "\(name) q\(q) r=\(radius)")
            for r in got { #expect(r.distanceMetres.map { $0 <= radius } == true) }
            if !expected.isEmpty { nonEmpty += 1 }
            // The limit keeps the nearest.
            let limited = try reader.nearby(lat: qLat, lon: qLon, radius: radius, limit: 3)
            #expect(limited.map(\.id) == Array(expected.prefix(3)))
        }
        #expect(nonEmpty >= 150)
        // Exact boundary: a radius equal to the distance of a POI includes it.
        for p in extra.prefix(200) {
            let d = GreatCircle.distance(lat, lon, p.lat, p.lon)
            guard d < 3000 else { continue }
            #expect(try reader.nearby(lat: lat, lon: lon, radius: d, limit: 100_000).contains { $0.id == p.id })
        }
    }

    @Test func nearbyResultsCarryDetailsAndLocaleNames() throws {
        let pack = try makePack()
        let reader = try PackReader.open(pack.db)
        defer { reader.close() }
        let results = try reader.nearby(lat: 48.2082, lon: 16.3738, radius: 60)
        #expect(results.map(\.id) == [40, 44])
        #expect(results[0].distanceMetres == 0)
        #expect(abs((results[1].distanceMetres ?? 0) - GreatCircle.distance(48.2082, 16.3738, 48.2085, 16.3740)) < 1e-9)
        // An unnamed place is described by its category (issue 32).
        #expect(!results[1].named && results[1].name?.isEmpty == false && results[1].tags == ["fee": "no"])
        #expect(try reader.nearby(lat: 48.2082, lon: 16.3738, radius: -1).isEmpty)
        #expect(try reader.nearby(lat: .nan, lon: 16.3738, radius: 10).isEmpty)
        #expect(try reader.nearby(lat: 48.2082, lon: 16.3738, radius: 60, limit: 0).isEmpty)
        let pharmacy = try reader.nearby(lat: 48.2100, lon: 16.3700, radius: 1, locale: "de-AT")
        #expect(pharmacy.first?.name == "Rathausapotheke")
        #expect(pharmacy.first?.names["fr"] == "Pharmacie de l'Hôtel de Ville")
    }

    @Test func localeNameChoice() throws {
        let pack = try makePack()
        let reader = try PackReader.open(pack.db)
        defer { reader.close() }
        #expect(try reader.place(id: 49, locale: "de")?.name == "Rathausapotheke")
        #expect(try reader.place(id: 49, locale: "de-CH")?.name == "Rathausapotheke")
        #expect(try reader.place(id: 49, locale: "it")?.name == "Town Hall Pharmacy")  // no `it`: plain name
        #expect(try reader.place(id: 49)?.name == "Town Hall Pharmacy")
        #expect(try reader.place(id: 52, locale: "zh-Hant-TW")?.name == "蘭特曼咖啡館")
        #expect(try reader.place(id: 52, locale: "zh")?.name == "Kaffeehaus Landtmann")
        // No plain name: the alphabetically first locale's name.
        #expect(try reader.place(id: 56, locale: "en")?.name == "Café Noir")
        #expect(try reader.place(id: 56, locale: "it")?.name == "Caffè Nero")
    }

    @Test func searchIgnoresDiacriticsAndCase() throws {
        let pack = try makePack()
        let reader = try PackReader.open(pack.gz, options: .init(temporaryDirectory: pack.dir))
        defer { reader.close() }
        #expect(try reader.search("cafe central").map(\.id) == [40])
        #expect(try reader.search("CAFÉ Central").map(\.id) == [40])
        #expect(try reader.search("Landtmann").map(\.id) == [52])
        // `toilette` is a synonym in the terms column; the POI has no name.
        let toilets = try reader.search("Toilette")
        #expect(toilets.map(\.id) == [44])
        #expect(toilets.first?.distanceMetres == nil)
        #expect(try reader.search("vessa").map(\.id) == [44])
        #expect(try reader.search("nothing like this").isEmpty)
    }

    @Test func searchPrefixMatchesTheLastWordOnly() throws {
        let pack = try makePack()
        let reader = try PackReader.open(pack.db)
        defer { reader.close() }
        #expect(Set(try reader.search("caf").map(\.id)) == [40, 52, 56])  // names, or `cafe` in terms
        #expect(try reader.search("Town Hall Pharm").map(\.id) == [49])
        #expect(try reader.search("Rathaus").map(\.id) == [49])  // the last word is a prefix of Rathausapotheke
        #expect(try reader.search("Rathaus Pharm").isEmpty)  // earlier words must match whole words
        #expect(try reader.search("Rathausapotheke Pharm").map(\.id) == [49])
        #expect(try reader.search("Pharmacie", locale: "fr").first?.name == "Pharmacie de l'Hôtel de Ville")
        #expect(try reader.search("caf", limit: 1).count == 1)
        #expect(try reader.search("caf", limit: 0).isEmpty)
        // Names outrank category terms: "caf" in a name beats a nameless POI matching only via terms.
        #expect(try reader.search("café").first?.name != nil)
    }

    @Test(arguments: [
        "\"", "caf\" OR \"", "NEAR(caf toilet)", "*", "caf*", "-toilet", "name:cafe", "a AND", "(", "^caf",
        "caf OR toilet", "' OR 1=1 --", "\u{0}",
    ])
    func searchNeverInjectsSyntax(text: String) throws {
        let pack = try makePack()
        let reader = try PackReader.open(pack.db)
        defer { reader.close() }
        _ = try reader.search(text)  // must not throw an FTS5 syntax error
        #expect(try reader.search("caf OR toilet").isEmpty)  // OR is a word here, not an operator
    }

    @Test func matchExpressionQuotesWords() {
        #expect(PackReader.matchExpression(for: "  Café  central ") == "\"Café\" \"central\"*")
        #expect(PackReader.matchExpression(for: "a\"b") == "\"a\" \"b\"*")
        #expect(PackReader.matchExpression(for: "NEAR(x)") == "\"NEAR\" \"x\"*")
        #expect(PackReader.matchExpression(for: "  -*\"()  ") == nil)
        #expect(PackReader.matchExpression(for: "") == nil)
        #expect(PackReader.matchExpression(for: "Café central", prefixLast: false) == "\"Café\" \"central\"")
    }

    @Test func verifiesHashesAgainstTheManifest() throws {
        let pack = try makePack()
        let good = try TestPack.manifest(compressed: pack.gz, database: pack.db, path: pack.gz.lastPathComponent)
        try PackReader.open(pack.gz, options: .init(manifest: good, temporaryDirectory: pack.dir)).close()
        try PackReader.open(pack.db, options: .init(manifest: good)).close()

        var badCompressed = good
        badCompressed.artifact.sha256 = String(repeating: "0", count: 64)
        #expect(throws: PackError.hashMismatch(.compressed, expected: badCompressed.artifact.sha256, actual: good.artifact.sha256)) {
            try PackReader.open(pack.gz, options: .init(manifest: badCompressed, temporaryDirectory: pack.dir))
        }
        var badUncompressed = good
        badUncompressed.artifact.uncompressedSha256 = String(repeating: "f", count: 64)
        #expect(throws: PackError.hashMismatch(.uncompressed, expected: badUncompressed.artifact.uncompressedSha256, actual: good.artifact.uncompressedSha256)) {
            try PackReader.open(pack.gz, options: .init(manifest: badUncompressed, temporaryDirectory: pack.dir))
        }
        #expect(throws: PackError.hashMismatch(.uncompressed, expected: badUncompressed.artifact.uncompressedSha256, actual: good.artifact.uncompressedSha256)) {
            try PackReader.open(pack.db, options: .init(manifest: badUncompressed))
        }
        var badSize = good
        badSize.artifact.bytes += 1
        #expect(throws: PackError.sizeMismatch(.compressed, expected: badSize.artifact.bytes, actual: good.artifact.bytes)) {
            try PackReader.open(pack.gz, options: .init(manifest: badSize, temporaryDirectory: pack.dir))
        }
        // Nothing is left behind in the temporary directory after failures.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: pack.dir.path).filter { $0.hasPrefix("citypack-") }
        #expect(leftovers.isEmpty)
    }

    @Test func opensThroughTheManifest() throws {
        let pack = try makePack()
        let manifest = try TestPack.manifest(compressed: pack.gz, database: pack.db, path: pack.gz.lastPathComponent)
        let manifestURL = pack.dir.appendingPathComponent(PackSchema.manifestName)
        try JSONEncoder.sorted.encode(manifest).write(to: manifestURL)
        let reader = try PackReader.open(manifest: manifestURL, options: .init(temporaryDirectory: pack.dir))
        #expect(try reader.search("Landtmann").map(\.id) == [52])
        reader.close()

        var tampered = manifest
        tampered.artifact.sha256 = String(repeating: "a", count: 64)
        try JSONEncoder.sorted.encode(tampered).write(to: manifestURL)
        #expect(throws: PackError.hashMismatch(.compressed, expected: tampered.artifact.sha256, actual: manifest.artifact.sha256)) {
            try PackReader.open(manifest: manifestURL, options: .init(temporaryDirectory: pack.dir))
        }
        var escaping = manifest
        escaping.artifact.path = "../elsewhere/" + pack.gz.lastPathComponent
        try JSONEncoder.sorted.encode(escaping).write(to: manifestURL)
        #expect(throws: PackError.invalidManifest(path: manifestURL.path, message: "unsafe artifact path \(escaping.artifact.path)")) {
            try PackReader.open(manifest: manifestURL)
        }
        var future = manifest
        future.minReaderVersion = 99
        try JSONEncoder.sorted.encode(future).write(to: manifestURL)
        #expect(throws: PackError.unsupportedFormatVersion(found: 99, supported: PackSchema.formatVersion)) {
            try PackReader.open(manifest: manifestURL)
        }
        try Data("{\"formatVersion\": 1}".utf8).write(to: manifestURL)
        #expect { try PackReader.open(manifest: manifestURL) } throws: { error in
            if case .invalidManifest = error as? PackError { return true }
            return false
        }
    }

    @Test func refusesUnknownFormatVersion() throws {
        let dir = try TestPack.directory()
        let db = try TestPack.writeDatabase(namedPOIs, to: dir.appendingPathComponent("vnext.sqlite"), userVersion: PackSchema.formatVersion + 1)
        #expect(throws: PackError.unsupportedFormatVersion(found: PackSchema.formatVersion + 1, supported: PackSchema.formatVersion)) {
            try PackReader.open(db)
        }
        let gz = try TestPack.gzip(db, to: dir.appendingPathComponent("vnext.citypack.gz"))
        #expect(throws: PackError.unsupportedFormatVersion(found: PackSchema.formatVersion + 1, supported: PackSchema.formatVersion)) {
            try PackReader.open(gz, options: .init(temporaryDirectory: dir))
        }
        let v0 = try TestPack.writeDatabase(namedPOIs, to: dir.appendingPathComponent("v0.sqlite"), userVersion: 0)
        #expect(throws: PackError.unsupportedFormatVersion(found: 0, supported: PackSchema.formatVersion)) {
            try PackReader.open(v0)
        }
    }

    @Test func refusesOtherDatabases() throws {
        let dir = try TestPack.directory()
        let db = try TestPack.writeDatabase(namedPOIs, to: dir.appendingPathComponent("other.sqlite"), applicationID: 0x1234)
        #expect(throws: PackError.wrongApplicationID(found: 0x1234, expected: PackSchema.applicationID)) {
            try PackReader.open(db)
        }
        let text = dir.appendingPathComponent("notes.txt")
        try Data("hello, not a pack".utf8).write(to: text)
        #expect(throws: PackError.notAPack(path: text.path, message: "neither gzip nor SQLite data")) {
            try PackReader.open(text)
        }
        let missing = dir.appendingPathComponent("missing.citypack.gz")
        #expect(throws: PackError.fileNotFound(path: missing.path)) { try PackReader.open(missing) }
    }

    @Test func refusesCorruptedGzip() throws {
        let pack = try makePack(extra: randomPOIs(count: 500, lat: 48.21, lon: 16.37, seed: 3))
        var bytes = [UInt8](try Data(contentsOf: pack.gz))
        func isCorrupt(_ error: any Error) -> Bool {
            if case .corruptCompressedData = error as? PackError { return true }
            return false
        }
        // Damaged deflate data.
        var damaged = bytes
        for i in stride(from: 40, to: min(damaged.count - 8, 4000), by: 97) { damaged[i] ^= 0x5A }
        let damagedURL = pack.dir.appendingPathComponent("damaged.citypack.gz")
        try Data(damaged).write(to: damagedURL)
        #expect(performing: { try PackReader.open(damagedURL, options: .init(temporaryDirectory: pack.dir)) }, throws: isCorrupt)
        // Truncated stream.
        let truncatedURL = pack.dir.appendingPathComponent("truncated.citypack.gz")
        try Data(bytes.prefix(bytes.count / 2)).write(to: truncatedURL)
        #expect(performing: { try PackReader.open(truncatedURL, options: .init(temporaryDirectory: pack.dir)) }, throws: isCorrupt)
        // Wrong CRC in the trailer.
        bytes[bytes.count - 6] ^= 0xFF
        let crcURL = pack.dir.appendingPathComponent("crc.citypack.gz")
        try Data(bytes).write(to: crcURL)
        #expect(performing: { try PackReader.open(crcURL, options: .init(temporaryDirectory: pack.dir)) }, throws: isCorrupt)
        // Expands beyond the limit.
        #expect(performing: {
            try PackReader.open(pack.gz, options: .init(temporaryDirectory: pack.dir, maxUncompressedBytes: 4096))
        }, throws: isCorrupt)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: pack.dir.path).filter { $0.hasPrefix("citypack-") }
        #expect(leftovers.isEmpty)
    }

    @Test func decompressesForLaterDirectOpening() throws {
        let pack = try makePack()
        let manifest = try TestPack.manifest(compressed: pack.gz, database: pack.db, path: pack.gz.lastPathComponent)
        let kept = pack.dir.appendingPathComponent("kept.sqlite")
        try PackOpener.decompress(pack.gz, to: kept, verifying: manifest)
        #expect(try FileDigest(path: kept.path).sha256 == manifest.artifact.uncompressedSha256)
        let reader = try PackReader.open(kept, options: .init(manifest: manifest))
        #expect(try reader.search("Landtmann").map(\.id) == [52])
        reader.close()
        #expect(FileManager.default.fileExists(atPath: kept.path))  // not owned by the reader
        // Concatenated gzip members (RFC 1952 §2.2) decompress to the concatenation.
        let bytes = try Data(contentsOf: pack.db)
        let half1 = pack.dir.appendingPathComponent("half1"), half2 = pack.dir.appendingPathComponent("half2")
        try bytes.prefix(bytes.count / 2).write(to: half1)
        try bytes.suffix(from: bytes.count / 2).write(to: half2)
        let gz1 = try Data(contentsOf: TestPack.gzip(half1, to: pack.dir.appendingPathComponent("h1.gz")))
        let gz2 = try Data(contentsOf: TestPack.gzip(half2, to: pack.dir.appendingPathComponent("h2.gz")))
        let joined = pack.dir.appendingPathComponent("joined.citypack.gz")
        try (gz1 + gz2).write(to: joined)
        let viaMembers = try PackReader.open(joined, options: .init(temporaryDirectory: pack.dir))
        #expect(viaMembers.poiCount == pack.pois.count)
        viaMembers.close()
    }

    @Test func concurrentQueriesAreSerialisedSafely() throws {
        let pack = try makePack(extra: randomPOIs(count: 800, lat: 48.21, lon: 16.37, seed: 11))
        let reader = try PackReader.open(pack.db, options: .init(detailCacheLimit: 50))  // force cache churn
        defer { reader.close() }
        let expected = try (0..<16).map { k in
            try reader.nearby(lat: pack.pois[k * 40].lat, lon: pack.pois[k * 40].lon, radius: 300).map(\.id)
        }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let k = i % 16
            do {
                let got = try reader.nearby(lat: pack.pois[k * 40].lat, lon: pack.pois[k * 40].lon, radius: 300).map(\.id)
                let found = try reader.search("Central").map(\.id)
                if got != expected[k] || found != [40] { failures.increment() }
            } catch {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
    }

    @Test func malformedTagsAreATypedError() throws {
        var broken = namedPOIs[0]
        broken.tags = [:]
        let dir = try TestPack.directory()
        let db = try TestPack.writeDatabase([broken], to: dir.appendingPathComponent("tags.sqlite"))
        // Overwrite tags with a JSON array using a second connection-free route: rebuild with raw text.
        try TestPack.overwriteTags(of: broken.id, with: "[1, 2]", in: db)
        let reader = try PackReader.open(db)
        defer { reader.close() }
        #expect(throws: PackError.malformedData("poi 40: tags are neither compact tags nor a JSON object of strings")) {
            try reader.place(id: broken.id)
        }
    }
}

/// Timing on a city-like 5 000-POI pack (release-build figures: `swift test -c release --filter
/// CityPackKitTests.NearbyBenchmarkTests`). Prints the medians of the index lookup, of its brute-force reference and
/// of `nearby`; asserts only that the index beats brute force, never a time (`citypack bench` reports the full
/// figures). Runs in every `swift test` (about 2 s in a debug build), so a plain run is the set CI runs.
struct NearbyBenchmarkTests {
    @Test func fiveThousandPOIs() throws {
        var rng = SplitMix64(seed: 2026)
        var pois: [TestPOI] = []
        for k in 0..<5000 {
            // About 5 km × 5 km, denser towards the centre, like a city core.
            let r = 0.025 * Double.random(in: 0...1, using: &rng).squareRoot()
            let a = Double.random(in: 0..<(2 * Double.pi), using: &rng)
            let category = ["cafe", "toilet", "pharmacy"][k % 3]
            pois.append(TestPOI(
                id: Int64(k) * 4, lat: 48.2082 + r * sin(a), lon: 16.3738 + r * cos(a) / cos(48.2 * Double.pi / 180),
                category: category, name: "Place \(k)", names: ["de": "Ort \(k)", "fr": "Lieu \(k)"],
                tags: ["opening_hours": "Mo-Fr 09:00-18:00", "wheelchair": k % 2 == 0 ? "yes" : "no"]))
        }
        let dir = try TestPack.directory()
        let db = try TestPack.writeDatabase(pois, to: dir.appendingPathComponent("bench.sqlite"))
        let reader = try PackReader.open(db)
        defer { reader.close() }
        // Each query centred on an indexed place, as `citypack bench` does; the index against measuring every
        // place (the reference it must agree with), then `nearby` with details cached.
        let index = reader.proximityIndex
        let positions = (0..<index.count).map { (lat: index.lats[$0], lon: index.lons[$0]) }
        func median(_ work: ((lat: Double, lon: Double)) throws -> Int) rethrows -> Double {
            var samples: [UInt64] = []
            var found = 0
            for p in positions {
                let start = DispatchTime.now().uptimeNanoseconds
                found &+= try work(p)
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            #expect(found >= positions.count)  // each query finds at least the place it is centred on
            return Double(samples.sorted()[samples.count / 2])
        }
        let indexOnly = median { index.within(lat: $0.lat, lon: $0.lon, radius: 25, limit: 50).count }
        let bruteForce = median { index.bruteForce(lat: $0.lat, lon: $0.lon, radius: 25, limit: 50).count }
        _ = try median { try reader.nearby(lat: $0.lat, lon: $0.lon, radius: 25).count }
        let nearby = try median { try reader.nearby(lat: $0.lat, lon: $0.lon, radius: 25).count }
        let figures = ["indexOnlyMedianNanoseconds": indexOnly, "bruteForceMedianNanoseconds": bruteForce, "medianNanoseconds": nearby]
        let data = try JSONEncoder.sorted.encode(figures)
        print("NEARBY-BENCH \(String(decoding: data, as: UTF8.self))")
        #expect(indexOnly < bruteForce)
    }
}
