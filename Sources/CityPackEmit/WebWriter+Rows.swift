import CityPackFormat
import CityPackSupport
import Foundation

/// The web flavour's `places` and `search` parts (format 2, see ``WebWriter``): two small heads and the rows in
/// content-defined chunks.
extension WebWriter {
    /// The head of `places`: what every chunk refers to.
    struct PlacesHead: Encodable {
        var format = WebFlavour.formatVersion
        var city: String
        var defaultLocale: String
        var locales: [String]
        var precision: Int
        /// Category ids; a chunk's `category` and `also` hold positions in this list. The pack's categories (the
        /// profile's, whatever the data) and the stops', so an edit of the data leaves it as it is.
        var categories: [String]
        /// Names of the columns of a row chunk, in order (``WebFlavour/rowColumns``).
        var columns = WebFlavour.rowColumns
        /// Tag key by reference (the shortest prefix, at least 3 hex digits, of the key's SHA-256 that no other
        /// key of the pack shares): a reference does not move when other keys come or go.
        var tagKeys: [String: String]
        /// Category labels per category id and locale: what describes an unnamed place in a locale.
        var labels: [String: [String: String]]
    }

    /// The head of `search`: the rows' tokens are in the places chunks (`tokens`, `terms`).
    struct SearchHead: Encodable {
        var format = WebFlavour.formatVersion
        /// bm25 column weights (name, terms), as `PackReader.search` ranks.
        var weights: [Double] = [10, 1]
        /// The `terms` column's token strings (space-separated, in position order) by reference (the shortest
        /// prefix, at least 4 hex digits, of the string's SHA-256 that no other string shares): places of one
        /// category share one string.
        var terms: [String: String] = [:]
        /// The words that name categories: a term's folded tokens joined by a space → the categories, ascending.
        /// A query whose tokens are exactly a key is a category query.
        var categoryTerms: [String: [String]] = [:]
    }

    /// Rows of `places` (see `docs/WEB.md`), encoded as a JSON array of its columns in the order of
    /// ``WebFlavour/rowColumns`` (the head's `columns`), an absent column as null: no member names in every chunk.
    struct RowChunk: Encodable {
        /// Rows of the chunk in the proximity index; the rest (after them) are searchable stops it does not hold.
        /// Absent when every row is indexed.
        var indexed: Int?
        var id: [Int64] = []
        /// Degrees × 10⁷, the first absolute and the others as differences from the row before, when every
        /// coordinate of the chunk is such an integer exactly (`PackSchema.storedDegrees`); else `lat`, `lon`.
        var lat7: [Int64]?
        var lon7: [Int64]?
        var lat: [Double]?
        var lon: [Double]?
        /// Positions in the head's `categories`.
        var category: [Int] = []
        var name: [String?] = []
        /// Per row, names per locale; absent when no row has any.
        var names: [[String: String]]?
        /// Per row, tags keyed by the head's `tagKeys` references; absent when no row has any.
        var tags: [[String: String]]?
        /// Absent when no row is a stop with a GTFS stop_id.
        var stopId: [String?]?
        /// Further categories by POI id (positions in the head's `categories`); absent when none.
        var also: [String: [Int]]?
        /// Per row, the tokens of the search row's `name` column, space-separated in position order; null when the
        /// place has no search row.
        var tokens: [String?] = []
        /// Per row, the reference of its `terms` tokens in the search head; null when the place has no search row.
        var terms: [String?] = []
        /// The other id of each linked place of the chunk (a GTFS stop and the OSM feature of the same place), by
        /// id; absent when none.
        var links: [String: Int64]?
        /// The place each row of the chunk shares with others (linked pairs, platforms named as their station), by
        /// id; absent when none.
        var groups: [String: Int64]?
        /// Per row, `poi.wheelchair` (`yes`, `limited`, `no` or null); absent when no row has one.
        var wheelchair: [String?]?
        /// Per row, `poi.hours` (compact opening hours or null); absent when no row has any.
        var hours: [String?]?

        func encode(to encoder: any Encoder) throws {
            var columns = encoder.unkeyedContainer()
            func put<T: Encodable>(_ value: T?) throws {
                if let value { try columns.encode(value) } else { try columns.encodeNil() }
            }
            // The order of WebFlavour.rowColumns.
            try put(indexed)
            try put(id)
            try put(lat7)
            try put(lon7)
            try put(lat)
            try put(lon)
            try put(category)
            try put(name)
            try put(names)
            try put(tags)
            try put(stopId)
            try put(also)
            try put(tokens)
            try put(terms)
            try put(links)
            try put(groups)
            try put(wheelchair)
            try put(hours)
        }
    }

    /// References for strings: for each, the shortest prefix (at least `minimum` hex digits) of its SHA-256 that
    /// no other string's hash shares. Depends on the other strings only when two hashes share that many digits.
    static func references(_ strings: Set<String>, minimum: Int) -> [String: String] {
        let hashed = strings.map { (FileDigest.sha256(of: Data($0.utf8)), $0) }.sorted { $0.0 < $1.0 }
        func common(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var out: [String: String] = [:]
        for (i, (hash, string)) in hashed.enumerated() {
            var shared = 0
            if i > 0 { shared = max(shared, common(hash, hashed[i - 1].0)) }
            if i + 1 < hashed.count { shared = max(shared, common(hash, hashed[i + 1].0)) }
            out[string] = String(hash.prefix(max(minimum, shared + 1)))
        }
        return out
    }

    /// Writes the `places` head, the row chunks and the `search` head.
    static func writeRows(places p: Places, search s: Search, folder: String, prefix: String, path: String) throws(EmitError) -> [Manifest.WebPart] {
        // Search rows by place id: the name column's tokens and the terms column's string.
        var searchRows: [Int64: (tokens: String, terms: String)] = [:]
        for (r, id) in s.rowid.enumerated() {
            searchRows[id] = (s.name[r].map { s.vocab[$0] }.joined(separator: " "), s.terms[r].map { s.vocab[$0] }.joined(separator: " "))
        }
        let placeIDs = Set(p.id)
        if let orphan = s.rowid.first(where: { !placeIDs.contains($0) }) {
            throw .io(path: path, message: "web flavour: search row of id \(orphan) has no place row")
        }
        let termRefs = references(Set(searchRows.values.map(\.terms)), minimum: 4)
        let tagRefs = references(Set(p.tags.flatMap(\.keys)), minimum: 3)
        // The profile's categories and the three of stops, always (the rows' own only add ids outside them, which
        // the pack does not make): a list that data edits leave alone.
        let categories = Array(Set(p.categoryCodes + WebWriter.stopCategories + p.category + p.also.values.flatMap { $0 })).sorted()
        var categoryIndex: [String: Int] = [:]
        for (i, c) in categories.enumerated() { categoryIndex[c] = i }

        // Each row's boundary key (its cell, or its id past the indexed rows) and estimated JSON bytes.
        let indexedCount = p.counts.reduce(0, +)
        var keys: [String] = []
        keys.reserveCapacity(p.id.count)
        for (cell, count) in zip(p.cells, p.counts) { keys += repeatElement(cell, count: count) }
        for i in indexedCount..<p.id.count { keys.append("~\(p.id[i])") }
        func estimate(_ i: Int) -> Int {
            var n = WebFlavour.rowChunkRowBytes + (p.name[i]?.utf8.count ?? 0) + (searchRows[p.id[i]]?.tokens.utf8.count ?? 0)
            for (k, v) in p.names[i] { n += k.utf8.count + v.utf8.count }
            for (k, v) in p.tags[i] { n += k.utf8.count + v.utf8.count }
            return n
        }
        var ranges: [Range<Int>] = []
        var start = 0
        var size = 0
        for i in p.id.indices {
            size += estimate(i)
            let lastOfKey = i + 1 == p.id.count || keys[i + 1] != keys[i]
            guard lastOfKey, size >= WebFlavour.rowChunkMinBytes || i + 1 == p.id.count else { continue }
            if i + 1 == p.id.count || size >= WebFlavour.rowChunkMaxBytes
                || fnv1a(Array(keys[i].utf8)) % WebFlavour.rowChunkDivisor == 0
            {
                ranges.append(start..<(i + 1))
                start = i + 1
                size = 0
            }
        }

        var rowChunks: [RowChunk] = []
        rowChunks.reserveCapacity(ranges.count)
        for range in ranges {
            var c = RowChunk()
            let indexed = max(0, min(range.upperBound, indexedCount) - range.lowerBound)
            c.indexed = indexed == range.count ? nil : indexed
            c.id = Array(p.id[range])
            let lat7 = range.map { PackSchema.storedDegrees(p.lat[$0]) }
            let lon7 = range.map { PackSchema.storedDegrees(p.lon[$0]) }
            if !lat7.contains(nil) && !lon7.contains(nil) {
                func deltas(_ v: [Int64?]) -> [Int64] { v.indices.map { $0 == 0 ? v[0]! : v[$0]! - v[$0 - 1]! } }
                c.lat7 = deltas(lat7)
                c.lon7 = deltas(lon7)
            } else {
                c.lat = Array(p.lat[range])
                c.lon = Array(p.lon[range])
            }
            c.category = range.map { categoryIndex[p.category[$0]] ?? 0 }
            c.name = Array(p.name[range])
            let names = Array(p.names[range])
            if names.contains(where: { !$0.isEmpty }) { c.names = names }
            let tags = range.map { i in
                Dictionary(uniqueKeysWithValues: p.tags[i].map { (tagRefs[$0.key] ?? $0.key, $0.value) })
            }
            if tags.contains(where: { !$0.isEmpty }) { c.tags = tags }
            let stopIDs = Array(p.stopId[range])
            if stopIDs.contains(where: { $0 != nil }) { c.stopId = stopIDs }
            let wheelchair = Array(p.wheelchair[range])
            if wheelchair.contains(where: { $0 != nil }) { c.wheelchair = wheelchair }
            let hours = Array(p.hours[range])
            if hours.contains(where: { $0 != nil }) { c.hours = hours }
            var also: [String: [Int]] = [:]
            for i in range {
                if let more = p.also[String(p.id[i])] { also[String(p.id[i])] = more.map { categoryIndex[$0] ?? 0 } }
            }
            c.also = also.isEmpty ? nil : also
            var links: [String: Int64] = [:]
            var groups: [String: Int64] = [:]
            for i in range {
                let id = String(p.id[i])
                if let other = p.links[id] { links[id] = other }
                if let group = p.groups[id] { groups[id] = group }
            }
            c.links = links.isEmpty ? nil : links
            c.groups = groups.isEmpty ? nil : groups
            for i in range {
                let row = searchRows[p.id[i]]
                c.tokens.append(row?.tokens)
                c.terms.append(row.map { termRefs[$0.terms] ?? "" })
            }
            rowChunks.append(c)
        }
        // Encoded, compressed and written on every core (each chunk on its own; the list keeps their order).
        let written = WrittenFiles(count: rowChunks.count), all = rowChunks
        DispatchQueue.concurrentPerform(iterations: all.count) { i in
            written.set(i, Result { () throws(EmitError) in
                try writeFile(WebFlavour.rowsPrefix, [UInt8](try encode(all[i], path: path)), folder: folder, prefix: prefix)
            })
        }
        let chunks = try written.all()
        let head = PlacesHead(
            city: p.city, defaultLocale: p.defaultLocale, locales: p.locales, precision: p.precision,
            categories: categories, tagKeys: Dictionary(uniqueKeysWithValues: tagRefs.map { ($0.value, $0.key) }),
            labels: p.labels)
        let placesPart = try writeHead(WebFlavour.placesPart, try encode(head, path: path), folder: folder, prefix: prefix, chunks: chunks)
        var searchHead = SearchHead(weights: s.weights, categoryTerms: s.categoryTerms)
        for (string, ref) in termRefs { searchHead.terms[ref] = string }
        let searchPart = try writeHead(WebFlavour.searchPart, try encode(searchHead, path: path), folder: folder, prefix: prefix)
        return [placesPart, searchPart]
    }
}

/// Files written from several threads, by index.
final class WrittenFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Manifest.WebFile, EmitError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ result: Result<Manifest.WebFile, EmitError>) { lock.withLock { results[i] = result } }

    /// Every file in order, or the first failure.
    func all() throws(EmitError) -> [Manifest.WebFile] {
        var files: [Manifest.WebFile] = []
        for result in lock.withLock({ results }) {
            guard let result else { throw .io(path: "(web rows)", message: "a chunk was not written") }
            files.append(try result.get())
        }
        return files
    }
}
