import CityPackEmit
import CityPackFormat
import CityPackSupport
import Foundation

/// The SHA-256 of what a stage reads, built field by field: each field is written with its length, so no two
/// different field lists give the same bytes. Made by ``StageWork/key(_:inputs:)`` from what a step declares
/// (``CacheInput``), never by hand.
struct CacheKey: Sendable, Equatable {
    private var text: [UInt8] = []

    init(_ entry: String) {
        add("citypack build cache")
        add(Compiler.generator)
        add("pack format \(PackSchema.formatVersion)")
        add("cache format \(StageCache.formatVersion)")
        add(entry)
    }

    mutating func add(_ field: String) {
        var w = CacheWriter(capacity: field.utf8.count + 4)
        w.string(field)
        text.append(contentsOf: w.bytes)
    }

    mutating func add(_ label: String, _ value: String) {
        add(label)
        add(value)
    }

    mutating func add(_ other: CacheKey) { add("key", other.hex) }

    /// A file's or folder's content (a folder: every file below it, by relative path), or "missing".
    mutating func addContent(of path: String) { add(path, StageCache.contentDigest(path) ?? "missing") }

    /// Every stored property of `value`, by label, walked through nested values (``CacheKeyText`` values give
    /// their own text; optionals, arrays and dictionaries their elements), so that a field added to an options
    /// type changes the key without anyone listing it. Properties named in `skipping` are left out.
    mutating func addFields(of value: Any, label: String, skipping: Set<String> = []) {
        add(label, Self.fieldText(value, skipping: skipping))
    }

    /// The text ``addFields(of:label:skipping:)`` hashes: `label=value` per property, nested in brackets.
    static func fieldText(_ value: Any, skipping: Set<String> = []) -> String {
        if let keyed = value as? CacheKeyText { return keyed.cacheKeyText }
        if let data = value as? Data { return FileDigest.sha256(of: data) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { "some(\(fieldText($0.value)))" } ?? "none"
        case .struct, .class, .tuple, .enum:
            if mirror.children.isEmpty { return "\(value)" }
            let fields = mirror.children.enumerated().compactMap { i, child -> String? in
                let name = child.label ?? "\(i)"
                return skipping.contains(name) ? nil : "\(name)=\(fieldText(child.value))"
            }
            return "\(mirror.subjectType)(\(fields.joined(separator: ",")))"
        case .collection, .set, .dictionary:
            let items = mirror.children.map { fieldText($0.value) }
            return "[\((mirror.displayStyle == .collection ? items : items.sorted()).joined(separator: ","))]"
        default:
            return "\(value)"
        }
    }

    var digest: [UInt8] { FileDigest.sha256Bytes(of: text) }
    var hex: String { FileDigest.hex(digest) }
}

/// A value that says itself what of it a cache key holds (a signing key: its key id, not its secret).
protocol CacheKeyText {
    /// The text hashed into a key.
    var cacheKeyText: String { get }
}

extension SigningKey: CacheKeyText {
    var cacheKeyText: String { "key \(keyID)" }
}

/// One thing a cached step's key is made of, as the step declares it (``StageWork/key(_:inputs:)``).
enum CacheInput {
    /// A file or folder a stage reads, or a product of an earlier stage (the key of the stage that made it).
    case artifact(BuildArtifact)
    /// The city file's content and folder (relative paths in it resolve against the folder).
    case cityFile
    /// A value a step reads, by name.
    case value(String, String)
    /// Every stored property of an options value (``CacheKey/addFields(of:label:skipping:)``).
    case fields(String, Any, skipping: Set<String> = [])
}
