import CityPackEmit
import CityPackFormat
import CityPackSupport
import Foundation

/// The SHA-256 of what a stage reads, built field by field: each field is written with its length, so no two
/// different field lists give the same bytes. Made by ``StageWork/key(_:inputs:)`` from what a step declares
/// (``CacheInput``), never by hand.
package struct CacheKey: Sendable, Equatable {
    private var text: [UInt8] = []

    package init(_ entry: String) {
        add("citypack build cache")
        add(ToolIdentity.generator)
        add("pack format \(PackSchema.formatVersion)")
        add("cache format \(StageCache.formatVersion)")
        add(entry)
    }

    package mutating func add(_ field: String) {
        var w = CacheWriter(capacity: field.utf8.count + 4)
        w.string(field)
        text.append(contentsOf: w.bytes)
    }

    package mutating func add(_ label: String, _ value: String) {
        add(label)
        add(value)
    }

    package mutating func add(_ other: CacheKey) { add("key", other.hex) }

    /// A file's or folder's content (a folder: every file below it, by relative path), or "missing".
    package mutating func addContent(of path: String) { add(path, StageCache.contentDigest(path) ?? "missing") }

    /// Every stored property of `value`, by label, walked through nested values (``CacheKeyText`` values give
    /// their own text; optionals, arrays and dictionaries their elements), so that a field added to an options
    /// type changes the key without anyone listing it. Properties named in `skipping` are left out.
    package mutating func addFields(of value: Any, label: String, skipping: Set<String> = []) {
        add(label, Self.fieldText(value, skipping: skipping))
    }

    /// The text ``addFields(of:label:skipping:)`` hashes: `label=value` per property, nested in brackets.
    package static func fieldText(_ value: Any, skipping: Set<String> = []) -> String {
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

    package var digest: [UInt8] { FileDigest.sha256Bytes(of: text) }
    package var hex: String { FileDigest.hex(digest) }
}

/// A value that says itself what of it a cache key holds (a signing key: its key id, not its secret).
package protocol CacheKeyText {
    /// The text hashed into a key.
    var cacheKeyText: String { get }
}

extension SigningKey: CacheKeyText {
    package var cacheKeyText: String { "key \(keyID)" }
}

