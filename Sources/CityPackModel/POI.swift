import CityPackDiagnostics
import CityPackGeometry

/// OSM element type and id, written `n123`, `w456`, `r789`.
public struct OSMRef: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public enum Kind: UInt8, Sendable, Codable, Comparable {
        case node = 0
        case way = 1
        case relation = 2

        public var letter: Character {
            switch self {
            case .node: "n"
            case .way: "w"
            case .relation: "r"
            }
        }

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    public var id: Int64

    public init(_ kind: Kind, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    /// `n123`.
    public var description: String { "\(kind.letter)\(id)" }

    /// Parses `n123` / `w456` / `r789`.
    public init?(_ text: String) {
        guard let first = text.first, let id = Int64(text.dropFirst()) else { return nil }
        switch first {
        case "n": self.init(.node, id)
        case "w": self.init(.way, id)
        case "r": self.init(.relation, id)
        default: return nil
        }
    }

    /// The stable POI id in a pack: `id × 4 + kind`. Unique per element, identical across rebuilds.
    public var stableID: Int64 { id &* 4 &+ Int64(kind.rawValue) }

    public static func < (lhs: OSMRef, rhs: OSMRef) -> Bool { (lhs.kind, lhs.id) < (rhs.kind, rhs.id) }
}

/// A point of interest after normalisation: one category, names per locale, useful tags, provenance.
public struct POI: Sendable, Hashable {
    public var ref: OSMRef
    public var coordinate: Coordinate
    /// Category id from the profile, e.g. `toilet`.
    public var category: String
    /// Further categories the place is filed under (the profile's `also` rules), e.g. `atm` for a bank with a
    /// cash machine; never ``category`` itself. Search finds the place by every one of them.
    public var alsoCategories: [String] = []
    /// The plain `name` tag, if any.
    public var name: String?
    /// `name:xx` tags keyed by locale (`fr`, `de`, `zh-Hant`).
    public var localizedNames: [String: String]
    /// Tags apps show (opening_hours, wheelchair, phone, website, …), as in the source.
    public var tags: [String: String]
    /// Where the element starts in its source file.
    public var location: SourceLocation

    public init(
        ref: OSMRef, coordinate: Coordinate, category: String, name: String?, localizedNames: [String: String],
        tags: [String: String], location: SourceLocation
    ) {
        self.ref = ref
        self.coordinate = coordinate
        self.category = category
        self.name = name
        self.localizedNames = localizedNames
        self.tags = tags
        self.location = location
    }

    /// The best display name for a locale: `name:<locale>`, then its language, then `name`.
    public func displayName(locale: String?) -> String? {
        if let locale {
            if let n = localizedNames[locale] { return n }
            if let dash = locale.firstIndex(where: { $0 == "-" || $0 == "_" }),
                let n = localizedNames[String(locale[..<dash])]
            {
                return n
            }
        }
        return name ?? localizedNames.sorted { $0.key < $1.key }.first?.value
    }
}
