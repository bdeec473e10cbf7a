import Foundation

/// Failure to load a category profile; always names the file.
public struct ProfileLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that could not be read or decoded.
    public var path: String
    /// What is wrong, including the JSON coding path when known.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// The default ``POIProfile``: categories and tag rules from `categories.json`, search synonyms from
/// `synonyms.json`, both in a templates directory.
///
/// Immutable and thread-safe once loaded.
public struct TemplatePOIProfile: POIProfile {
    /// One category as written in `categories.json`.
    struct CategoryFile: Codable {
        var id: String
        var priority: Int
        var labels: [String: String]
        var rules: [TagRule]
        /// Rules that file a POI of another category under this one too (`atm`: a bank with `atm=yes`).
        var also: [TagRule]?
        /// False for categories usually unnamed (toilets, ATMs, drinking water): no missing-name warning.
        var expectsName: Bool?
        /// An attribute people search for (wheelchair access, outdoor seating): it files a place that another
        /// category makes a POI under this one too, and never makes a POI or a main category by itself.
        var attribute: Bool?

        enum CodingKeys: String, CodingKey {
            case id, priority, labels, rules, also, attribute
            case expectsName = "expects_name"
        }
    }

    struct CategoriesFile: Codable {
        var format: Int
        /// Tags copied into POIs; an entry ending in `*` is a prefix (`addr:*`).
        var exposedTags: [String]
        var categories: [CategoryFile]

        enum CodingKeys: String, CodingKey {
            case format
            case exposedTags = "exposed_tags"
            case categories
        }
    }

    struct SynonymsFile: Codable {
        var format: Int
        var synonyms: [String: [String: [String]]]
    }

    /// Locales every category must label.
    public static let requiredLocales = ["en", "fr", "de", "it", "es", "ru"]

    public let categories: [CategoryDefinition]
    /// Rules per category, in ``categories`` order.
    private let rules: [[TagRule]]
    private let ruleKeys: Set<String>
    /// Every rule of each category (its own, its `also` ones), in ``categories`` order: a place is filed under
    /// every category one of whose rules it matches, its main category being the first by priority.
    private let alsoRules: [(id: String, rules: [TagRule])]
    /// Ids of the attribute categories (never a main category).
    public let attributeCategories: Set<String>
    /// First condition key of each rule → indices of categories having such a rule (a rule can only match when
    /// its first key is present, so only these categories need checking).
    private let candidatesByKey: [String: [Int]]
    /// Per first-condition key of any rule: the values its rules accept (nil: some rule accepts any value).
    private let firstConditionValues: [String: Set<String>?]
    private let exposedExact: Set<String>
    private let exposedPrefixes: [String]

    /// Builds a profile from already decoded parts; categories are ordered by priority then id.
    /// - Throws: ``ProfileLoadError`` (with `path` "<memory>") on duplicate ids or categories without rules.
    init(categoriesFile: CategoriesFile, synonyms: SynonymsFile, categoriesPath: String, synonymsPath: String) throws {
        guard categoriesFile.format == 1 else {
            throw ProfileLoadError(path: categoriesPath, reason: "unsupported format \(categoriesFile.format) (expected 1)")
        }
        guard synonyms.format == 1 else {
            throw ProfileLoadError(path: synonymsPath, reason: "unsupported format \(synonyms.format) (expected 1)")
        }
        var seen: Set<String> = []
        for (i, c) in categoriesFile.categories.enumerated() {
            let at = "categories[\(i)] (\(c.id))"
            guard let first = c.id.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
                c.id.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") })
            else {
                throw ProfileLoadError(path: categoriesPath, reason: "\(at): id must be snake_case")
            }
            guard seen.insert(c.id).inserted else {
                throw ProfileLoadError(path: categoriesPath, reason: "\(at): duplicate category id")
            }
            guard !c.rules.isEmpty else {
                throw ProfileLoadError(path: categoriesPath, reason: "\(at): no tag rules")
            }
            let missing = Self.requiredLocales.filter { (c.labels[$0] ?? "").isEmpty }
            guard missing.isEmpty else {
                throw ProfileLoadError(
                    path: categoriesPath, reason: "\(at): missing labels for \(missing.joined(separator: ", "))")
            }
        }
        if let unknown = synonyms.synonyms.keys.sorted().first(where: { !seen.contains($0) }) {
            throw ProfileLoadError(path: synonymsPath, reason: "synonyms for unknown category '\(unknown)'")
        }
        let sorted = categoriesFile.categories.sorted { ($0.priority, $0.id) < ($1.priority, $1.id) }
        categories = sorted.map {
            CategoryDefinition(
                id: $0.id, priority: $0.priority, labels: $0.labels, synonyms: synonyms.synonyms[$0.id] ?? [:],
                expectsName: $0.expectsName ?? true)
        }
        // An attribute category classifies nothing: its rules only add it to places other categories make.
        rules = sorted.map { $0.attribute == true ? [] : $0.rules }
        attributeCategories = Set(sorted.filter { $0.attribute == true }.map(\.id))
        ruleKeys = Set(sorted.flatMap { ($0.rules + ($0.also ?? [])).flatMap { $0.conditions.map(\.key) } })
        alsoRules = sorted.map { ($0.id, $0.rules + ($0.also ?? [])) }
        var candidates: [String: [Int]] = [:]
        for (i, c) in sorted.enumerated() where c.attribute != true {
            for key in Set(c.rules.compactMap { $0.conditions.first?.key }) { candidates[key, default: []].append(i) }
        }
        candidatesByKey = candidates
        // A rule matches only if its first condition does (conditions are sorted by key, as `candidates` uses).
        var firstValues: [String: Set<String>?] = [:]
        for rule in sorted.filter({ $0.attribute != true }).flatMap(\.rules) {
            guard let first = rule.conditions.first else { continue }
            switch (firstValues[first.key], first.values) {
            case (.none, let values): firstValues[first.key] = .some(values)
            case (.some(.none), _): break
            case (.some(.some), .none): firstValues[first.key] = .some(nil)
            case (.some(.some(let old)), .some(let values)): firstValues[first.key] = .some(old.union(values))
            }
        }
        firstConditionValues = firstValues
        exposedExact = Set(categoriesFile.exposedTags.filter { !$0.hasSuffix("*") })
        exposedPrefixes = categoriesFile.exposedTags.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) }
    }

    /// The profile as `osmium tags-filter` expressions (one per key a category's rule starts with:
    /// `nwr/KEY=V1,V2…`, or `nwr/KEY` when any value matches), sorted: what osmium must keep to find the same
    /// places (`citypack bench` times it against a build; attribute categories and `also` rules add no place).
    public var osmiumFilterExpressions: [String] {
        firstConditionValues.keys.sorted().map { key in
            guard case .some(.some(let values)) = firstConditionValues[key] else { return "nwr/\(key)" }
            return "nwr/\(key)=\(values.sorted().joined(separator: ","))"
        }
    }

    /// Loads `categories.json` and `synonyms.json` from a templates directory.
    /// - Parameter templatesDirectory: Directory holding both files (finding it is the caller's business).
    /// - Throws: ``ProfileLoadError`` naming the file for unreadable files, invalid JSON or inconsistent content.
    /// - Parameter synonyms: the synonyms file's content, when the caller kept it from an earlier load
    ///   (``synonyms(in:)``): `synonyms.json` is then not read. It is the largest template (150 KB of JSON,
    ///   about 10 ms to decode here).
    public static func load(
        templatesDirectory: URL, synonyms: [String: [String: [String]]]? = nil
    ) throws -> TemplatePOIProfile {
        try load(templates: .folder(templatesDirectory.path), synonyms: synonyms)
    }

    /// Loads `categories.json` and `synonyms.json` from a template source: a folder, or the built-in templates
    /// (read from memory).
    /// - Parameters:
    ///   - templates: Where both files are.
    ///   - synonyms: As in ``load(templatesDirectory:synonyms:)``.
    /// - Throws: ``ProfileLoadError`` naming the file for unreadable files, invalid JSON or inconsistent content.
    public static func load(
        templates: TemplateSource, synonyms: [String: [String: [String]]]? = nil
    ) throws -> TemplatePOIProfile {
        let categories: CategoriesFile = try decode("categories.json", in: templates)
        let file = try synonyms.map { SynonymsFile(format: 1, synonyms: $0) } ?? decode("synonyms.json", in: templates)
        return try TemplatePOIProfile(
            categoriesFile: categories, synonyms: file, categoriesPath: templates.path("categories.json"),
            synonymsPath: templates.path("synonyms.json"))
    }

    /// The content of a templates directory's `synonyms.json` (category → locale → words), as ``load(templatesDirectory:synonyms:)``
    /// takes it.
    /// - Throws: ``ProfileLoadError`` for an unreadable file, invalid JSON or a format other than 1.
    public static func synonyms(in templatesDirectory: URL) throws -> [String: [String: [String]]] {
        try synonyms(in: .folder(templatesDirectory.path))
    }

    /// The content of a template source's `synonyms.json`, as ``load(templates:synonyms:)`` takes it.
    /// - Throws: ``ProfileLoadError`` for an unreadable file, invalid JSON or a format other than 1.
    public static func synonyms(in templates: TemplateSource) throws -> [String: [String: [String]]] {
        let file: SynonymsFile = try decode("synonyms.json", in: templates)
        guard file.format == 1 else {
            throw ProfileLoadError(path: templates.path("synonyms.json"), reason: "unsupported format \(file.format) (expected 1)")
        }
        return file.synonyms
    }

    private static func decode<T: Decodable>(_ relative: String, in templates: TemplateSource) throws -> T {
        let path = templates.path(relative)
        guard let data = templates.contents(relative) else {
            throw ProfileLoadError(path: path, reason: "cannot read file (no such file, or it is not readable)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ProfileLoadError(path: path, reason: describe(error))
        } catch {
            throw ProfileLoadError(path: path, reason: "invalid JSON (\(error.localizedDescription))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "top level" : String(p.drop { $0 == "." })
        }
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            let underlying = (c.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(c)): \(c.debugDescription)" + (underlying.map { " (\($0))" } ?? "")
        case .keyNotFound(let key, let c):
            return "\(path(c)): missing key '\(key.stringValue)'"
        @unknown default:
            return "\(error)"
        }
    }

    public func classificationRelevance(ofKey key: String) -> TagRelevance {
        guard let values = firstConditionValues[key] else { return .never }
        return values.map(TagRelevance.values) ?? .anyValue
    }

    public func classify(tags: [String: String]) -> String? {
        var best = Int.max
        for key in tags.keys {
            guard let candidates = candidatesByKey[key] else { continue }
            for i in candidates where i < best && rules[i].contains(where: { $0.matches(tags) }) {
                best = i
            }
        }
        return best == Int.max ? nil : categories[best].id
    }

    public func alsoCategories(tags: [String: String], primary: String) -> [String] {
        alsoRules.compactMap { $0.id != primary && $0.rules.contains { $0.matches(tags) } ? $0.id : nil }
    }

    public func keeps(tag key: String) -> Bool {
        ruleKeys.contains(key) || exposes(tag: key)
    }

    public func exposes(tag key: String) -> Bool {
        exposedExact.contains(key) || exposedPrefixes.contains { key.hasPrefix($0) }
    }
}
