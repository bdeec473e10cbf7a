import CityPackFormat
import CityPackModel
import CityPackSQLite
import CityPackStorage
import CityPackSupport
import Foundation

/// Writes the SQLite pack (format ``PackSchema/formatVersion``) for a ``PackInput``.
///
/// Rows are inserted in a fixed order (POIs by stable id, stop buckets in ``ProximityIndex`` order, search rows by
/// rank), FTS5 is optimised
/// and the file vacuumed, so the same input always gives the same bytes. Tables, columns and the INSERTs come from
/// the table namespaces of ``PackSchema`` (``PackSchema/POI``, …), as the readers' queries do.
enum PackWriter {
    /// The shared SQLite wrapper, failing with ``EmitError``.
    typealias Database = SQLiteDatabase<EmitError>

    /// Writes a complete pack to `path` (which must not exist), without the release rows of `meta`
    /// (`data_version`, `created_at`): the file's hash then identifies the content alone, and
    /// ``setReleaseMeta(dataVersion:createdAt:path:)`` adds them afterwards. Always in two steps, the base
    /// (``writeBase(_:to:)``) and then the editorial and copy tables (``writeEditorial(_:to:)``), so that a build
    /// that reuses a stored base (``EmitReuse``) gives the same bytes as one that writes it.
    static func write(_ input: PackInput, to path: String) throws(EmitError) {
        try writeBase(input, to: path)
        try writeEditorial(input, to: path)
    }

    /// The pack's base: every table but the editorial and copy ones (left empty), vacuumed. It depends on the
    /// sources, profile and city file only, so an editorial or copy edit can start from the previous build's.
    static func writeBase(_ input: PackInput, to path: String) throws(EmitError) {
        let db = try Database(path: path, mode: .readWriteCreate)
        defer { db.close() }
        try db.exec("PRAGMA page_size = 4096")
        try db.exec("PRAGMA journal_mode = OFF")
        try db.exec("PRAGMA synchronous = OFF")
        try db.exec("PRAGMA application_id = \(PackSchema.applicationID)")
        try db.exec("PRAGMA user_version = \(PackSchema.formatVersion)")
        try db.exec("BEGIN")
        for statement in PackSchema.createStatements { try db.exec(statement) }

        let city = input.city
        let meta: [(String, String)] = [
            (PackSchema.MetaKey.formatVersion, String(PackSchema.formatVersion)),
            (PackSchema.MetaKey.cityID, city.id),
            (PackSchema.MetaKey.cityName, city.name),
            (PackSchema.MetaKey.defaultLocale, city.defaultLocale),
            (PackSchema.MetaKey.locales, city.locales.joined(separator: ",")),
            (PackSchema.MetaKey.bbox, city.bbox.array.map { String($0) }.joined(separator: ",")),
            (PackSchema.MetaKey.timezone, input.timezone),
            (PackSchema.MetaKey.generator, input.generator),
            (PackSchema.MetaKey.attribution, city.attribution),
            (PackSchema.MetaKey.poiCount, String(input.pois.count)),
            (PackSchema.MetaKey.stopCount, String(input.transitCounts.stops)),
            (PackSchema.MetaKey.lineCount, String(input.transitCounts.lines)),
        ]
        try insertMeta(meta, db: db)

        // The profile's categories and those of GTFS stops (``PackCategory/stopCategories``), whose labels describe
        // unnamed stops.
        let profileIDs = Set(input.categories.map(\.id))
        let categories = (input.categories + PackCategory.stopCategories.filter { !profileIDs.contains($0.id) })
            .sorted { $0.id < $1.id }
        typealias C = PackSchema.Category
        typealias CL = PackSchema.CategoryLabel
        let categoryInsert = try db.prepare(C.inserting())
        let labelInsert = try db.prepare(CL.inserting())
        var terms: [String: String] = [:]
        for category in categories {
            categoryInsert.bind(C.id, category.id)
            categoryInsert.bind(C.priority, category.priority)
            let defaultLabel = category.labels[city.defaultLocale] ?? category.labels["en"] ?? category.id
            categoryInsert.bind(C.label, defaultLabel)
            try categoryInsert.run()
            // Labels in the city's locales and in English (an app shows the pack in those): an unnamed place is
            // described by its category's label. A label equal to `category.label` is not stored: readers fall
            // back to it (the default locale's) for a locale without a row, so the answer is the same.
            for (locale, label) in category.labels.sorted(by: { $0.key < $1.key })
            where (city.locales.contains(locale) || locale == "en") && label != defaultLabel {
                labelInsert.bind(CL.category, category.id)
                labelInsert.bind(CL.locale, locale)
                labelInsert.bind(CL.label, label)
                try labelInsert.run()
            }
            terms[category.id] = searchTerms(for: category, locales: city.locales)
        }

        let categoryCodes = PackSchema.categoryCodes(categories.map(\.id))
        let pois = input.pois.sorted { $0.ref.stableID < $1.ref.stableID }
        typealias P = PackSchema.POI
        typealias PN = PackSchema.POIName
        typealias PC = PackSchema.POICategory
        let poiInsert = try db.prepare(P.inserting())
        let nameInsert = try db.prepare(PN.inserting())
        let alsoInsert = try db.prepare(PC.inserting(or: .ignore))
        for poi in pois {
            let id = poi.ref.stableID
            P.bind(poi, code: categoryCodes[poi.category], to: poiInsert)
            try poiInsert.run()
            for (locale, name) in poi.localizedNames.sorted(by: { $0.key < $1.key }) {
                nameInsert.bind(PN.poi, id)
                nameInsert.bind(PN.locale, locale)
                nameInsert.bind(PN.name, name)
                try nameInsert.run()
            }
            for also in poi.alsoCategories where also != poi.category {
                guard let code = categoryCodes[also] else { continue }
                alsoInsert.bind(PC.poi, id)
                alsoInsert.bind(PC.category, .code(code))
                try alsoInsert.run()
            }
        }

        let transit = try TransitWriter.write(input.transit, city: city, db: db)
        // Stops are found by the words of the modes serving them and filed under those categories (`poi_category`
        // rows of stop ids): a station by its platforms' modes, an entrance by its station's.
        let stopModes = modeCategories(transit, known: Set(categories.map(\.id)))
        for (stop, modes) in stopModes.sorted(by: { $0.key < $1.key }) {
            for mode in modes {
                guard let code = categoryCodes[mode] else { continue }
                alsoInsert.bind(PC.poi, stop)
                alsoInsert.bind(PC.category, .code(code))
                try alsoInsert.run()
            }
        }
        // The search words of the categories the index holds places of (readers build it: ``SearchIndex``).
        var indexed = Set(pois.flatMap { [$0.category] + $0.alsoCategories })
        for modes in stopModes.values { indexed.formUnion(modes) }
        try insertMeta([(PackSchema.MetaKey.searchTerms, PackSchema.SearchTerms.encode(terms.filter { indexed.contains($0.key) }))], db: db)
        try writeCategoryTerms(categories, locales: city.locales, db: db)
        // Each stop with the modes serving it: a feature merges only with a stop of a compatible mode.
        let linkable = transit.places.map { stop in
            var stop = stop
            stop.modes = stopModes[stop.id] ?? []
            return stop
        }
        try writeLinks(pois: pois, stops: linkable, db: db)
        // Tables with no rows are left out (format 5); readers see them as empty.
        try PackTables.dropEmpty(in: db)
        try db.exec("COMMIT")
        try db.exec("VACUUM")
    }

    /// Adds the editorial and copy tables' rows and their counts in `meta` to a base written by
    /// ``writeBase(_:to:)``: only the pages of those tables and of `meta` and the schema's header change.
    static func writeEditorial(_ input: PackInput, to path: String) throws(EmitError) {
        let db = try Database(path: path, mode: .readWriteCreate)
        defer { db.close() }
        try db.exec("PRAGMA journal_mode = OFF")
        try db.exec("PRAGMA synchronous = OFF")
        try db.exec("BEGIN")
        try insertMeta(
            [(PackSchema.MetaKey.cardCount, String(input.editorial.cards.count)),
             (PackSchema.MetaKey.routeCount, String(input.editorial.routes.count))], db: db)
        // An editorial table is created only for content it holds (format 5: tables with no rows are left out);
        // the others are empty TEMP stand-ins while the rows are written.
        let editorial = input.editorial
        let holds: [(table: any PackSchema.TableSchema.Type, filled: Bool)] = [
            (PackSchema.Card.self, !editorial.cards.isEmpty), (PackSchema.Situation.self, !editorial.situations.isEmpty),
            (PackSchema.Action.self, !editorial.actions.isEmpty), (PackSchema.Route.self, !editorial.routes.isEmpty),
            (PackSchema.RouteWaypoint.self, !editorial.routes.isEmpty),
        ]
        for entry in holds where entry.filled { try PackTables.create(entry.table, in: db) }
        try PackTables.addStandIns(in: db, formatVersion: PackSchema.formatVersion)
        try EditorialWriter.write(input.editorial, copy: input.copy, city: input.city, db: db)
        try db.exec("COMMIT")
    }

    /// Inserts `meta` rows in key order.
    static func insertMeta(_ rows: [(String, String)], db: Database) throws(EmitError) {
        typealias M = PackSchema.Meta
        let insert = try db.prepare(M.inserting())
        for (key, value) in rows.sorted(by: { $0.0 < $1.0 }) {
            insert.bind(M.key, key)
            insert.bind(M.value, value)
            try insert.run()
        }
    }

    /// Adds the release rows of `meta` to a finished pack: `data_version` and `created_at` (ISO 8601 UTC, the
    /// manifest's `updatedAt`).
    static func setReleaseMeta(dataVersion: Int, createdAt: String, path: String) throws(EmitError) {
        let db = try Database(path: path, mode: .readWriteCreate)
        defer { db.close() }
        try db.exec("PRAGMA journal_mode = OFF")
        typealias M = PackSchema.Meta
        let insert = try db.prepare(M.inserting(or: .replace))
        for (key, value) in [(PackSchema.MetaKey.createdAt, createdAt), (PackSchema.MetaKey.dataVersion, String(dataVersion))] {
            insert.bind(M.key, key)
            insert.bind(M.value, value)
            try insert.run()
        }
    }

    /// The categories of the modes serving each stop (``PackCategory/category(forRouteType:)``), only those the
    /// pack has, ascending; a station takes its platforms' modes, an entrance its station's.
    static func modeCategories(_ transit: TransitWriter.Summary, known: Set<String>) -> [Int64: [String]] {
        var modes = transit.modes
        let parents = Dictionary(transit.places.compactMap { s in s.parent.map { (s.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let types = Dictionary(transit.places.map { ($0.id, $0.locationType) }, uniquingKeysWith: { a, _ in a })
        for (child, parent) in parents.sorted(by: { $0.key < $1.key }) where types[child] != 2 {
            modes[parent, default: []].formUnion(modes[child] ?? [])
        }
        for (child, parent) in parents.sorted(by: { $0.key < $1.key }) where types[child] == 2 {
            modes[child, default: []].formUnion(modes[parent] ?? [])
        }
        var out: [Int64: [String]] = [:]
        for (stop, types) in modes {
            let categories = Set(types.compactMap(PackCategory.category(forRouteType:))).filter(known.contains)
            if !categories.isEmpty { out[stop] = categories.sorted() }
        }
        return out
    }

    /// Writes ``PackSchema/MetaKey/categoryTerms``: each category's terms (``searchTerms(for:locales:)``), folded
    /// as `search` is, that the readers' built-in ``CategoryWords`` lack (nothing for the default templates' own
    /// categories: readers know their words in every locale; the key is absent when no term is left).
    static func writeCategoryTerms(_ categories: [PackCategory], locales: [String], db: Database) throws(EmitError) {
        func key(_ term: String) -> String { CJKBigrams.expand(SearchFold.apply(term)) }
        var rows: [(category: String, terms: [String])] = []
        for category in categories {
            var seen = Set((CategoryWords.byCategory[category.id] ?? []).map { key($0).lowercased() })
            var terms: [String] = []
            for term in searchTerms(for: category, locales: locales).components(separatedBy: " | ") {
                let folded = key(term)
                guard !folded.isEmpty, !folded.contains(where: { $0 == "\u{1E}" || $0 == "\u{1F}" }),
                    seen.insert(folded.lowercased()).inserted
                else { continue }
                terms.append(folded)
            }
            if !terms.isEmpty { rows.append((category.id, terms)) }
        }
        guard !rows.isEmpty else { return }
        try insertMeta([(PackSchema.MetaKey.categoryTerms, PackSchema.CategoryTerm.encode(rows))], db: db)
    }

    /// Writes ``PackSchema/MetaKey/placeLinks``: the pairs of ``PlaceMerge`` (nothing when there are none).
    static func writeLinks(pois: [POI], stops: [PlaceMerge.Stop], db: Database) throws(EmitError) {
        let features = pois.compactMap { poi -> PlaceMerge.Feature? in
            guard PlaceMerge.maxDistance[poi.category] != nil else { return nil }
            return PlaceMerge.Feature(
                id: poi.ref.stableID, name: poi.name, names: poi.localizedNames, category: poi.category,
                lat: poi.coordinate.lat, lon: poi.coordinate.lon)
        }
        let pairs = PlaceMerge.pairs(features: features, stops: stops)
        guard !pairs.isEmpty else { return }
        try insertMeta([(PackSchema.MetaKey.placeLinks, PackSchema.PlaceLink.encode(pairs.map { ($0.poi, $0.stop) }))], db: db)
    }

    /// Writes the rows of the proximity bucket table (``PackSchema/StopBucket``) in index order: by cell, then
    /// by id.
    static func writeBuckets(_ index: ProximityIndex, db: Database) throws(EmitError) {
        typealias SB = PackSchema.StopBucket
        let insert = try db.prepare(SB.inserting())
        for row in 0..<index.count {
            insert.bind(SB.cell, index.cells[row])
            insert.bind(SB.stop, index.ids[row])
            insert.bind(SB.lat, index.lats[row])
            insert.bind(SB.lon, index.lons[row])
            try insert.run()
        }
    }

    /// Category id, then labels and synonyms in English and in the city's locales (matched by language, so `pt-BR`
    /// takes `pt`'s words), de-duplicated, in a stable order.
    ///
    /// Only those locales: the templates carry words for some hundred languages (CLDR), and every POI row of `search`
    /// indexes its category's terms, so all of them would add hundreds of tokens to each place. English stays in every
    /// pack as the lingua franca of travellers.
    static func searchTerms(for category: PackCategory, locales: [String]) -> String {
        var languages = Set(["en"] + locales.map(language))
        // CLDR files Norwegian Bokmål and Nynorsk words under the macrolanguage `no`.
        if !languages.isDisjoint(with: ["nb", "nn"]) { languages.insert("no") }
        var seen: Set<String> = []
        var out: [String] = []
        func add(_ term: String) {
            let t = term.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty && seen.insert(t.lowercased()).inserted { out.append(t) }
        }
        add(category.id.replacingOccurrences(of: "_", with: " "))
        for (locale, label) in category.labels.sorted(by: { $0.key < $1.key }) where languages.contains(language(locale)) {
            add(label)
        }
        for (locale, words) in category.synonyms.sorted(by: { $0.key < $1.key }) where languages.contains(language(locale)) {
            words.forEach(add)
        }
        return out.joined(separator: " | ")
    }

    /// The language subtag of a BCP 47 or CLDR locale (`pt-BR`, `pt_BR` → `pt`), lower-cased.
    static func language(_ locale: String) -> String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

}
