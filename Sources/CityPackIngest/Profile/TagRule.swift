/// A conjunction of tag conditions: every key must be present and, unless any value is allowed, have one of the
/// listed values.
///
/// In JSON a rule is an object `{"amenity": "bank", "atm": ["yes", "true"]}`; the value `"*"` allows any value.
public struct TagRule: Sendable, Hashable, Codable {
    /// One condition on one key.
    public struct Condition: Sendable, Hashable {
        public var key: String
        /// Allowed values; nil means any value.
        public var values: Set<String>?

        public init(key: String, values: Set<String>?) {
            self.key = key
            self.values = values
        }

        func matches(_ tags: [String: String]) -> Bool {
            guard let value = tags[key] else { return false }
            guard let values else { return true }
            return values.contains(value)
        }
    }

    /// Conditions sorted by key (deterministic encoding).
    public var conditions: [Condition]

    public init(_ conditions: [Condition]) {
        self.conditions = conditions.sorted { $0.key < $1.key }
    }

    /// True when every condition holds.
    public func matches(_ tags: [String: String]) -> Bool {
        conditions.allSatisfy { $0.matches(tags) }
    }

    private enum ValueSpec: Codable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                self = .one(s)
            } else {
                self = .many(try c.decode([String].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .one(let s): try c.encode(s)
            case .many(let list): try c.encode(list)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode([String: ValueSpec].self)
        guard !raw.isEmpty else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a tag rule needs at least one key"))
        }
        var conditions: [Condition] = []
        for (key, spec) in raw {
            let list: [String]
            switch spec {
            case .one(let s): list = [s]
            case .many(let l): list = l
            }
            guard !key.isEmpty, !list.isEmpty else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "empty key or value list for '\(key)'"))
            }
            conditions.append(Condition(key: key, values: list.contains("*") ? nil : Set(list)))
        }
        self.init(conditions)
    }

    public func encode(to encoder: any Encoder) throws {
        var raw: [String: ValueSpec] = [:]
        for c in conditions {
            raw[c.key] = c.values.map { .many($0.sorted()) } ?? .one("*")
        }
        var c = encoder.singleValueContainer()
        try c.encode(raw)
    }
}
