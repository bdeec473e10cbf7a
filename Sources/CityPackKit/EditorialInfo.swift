import CityPackFormat
import Foundation

/// A problem card as an app lists it (`card` table), with its title in the requested locale.
public struct CardInfo: Sendable, Encodable, Hashable {
    /// Stable card id (`cards.csv` `card_id`).
    public var id: String
    /// Title in the requested locale.
    public var title: String
    /// Icon name chosen by the editors (the app maps it to a symbol); nil when none.
    public var icon: String?
    /// Listed on the home screen; false for cards reached only through `card` actions.
    public var home: Bool
    /// Display order.
    public var position: Int
}

/// A micro-situation of a card (`situation` table).
public struct SituationInfo: Sendable, Encodable, Hashable {
    /// Stable situation id.
    public var id: String
    /// The card it belongs to.
    public var card: String
    /// Title in the requested locale.
    public var title: String
    /// Explanatory text; nil when none.
    public var body: String?
    /// Display order within the card.
    public var position: Int
}

/// A concrete action of a situation (`action` table). Actions of a kind this reader does not know (from a newer
/// writer) are not listed.
public struct ActionInfo: Sendable, Encodable, Hashable {
    /// Stable action id.
    public var id: String
    /// The situation it belongs to.
    public var situation: String
    /// What tapping the action does; `target` is interpreted accordingly.
    public var kind: ActionKind
    /// Category id, phone number, route id, stop id, card id or situation id; nil for `text`.
    public var target: String?
    /// Button label in the requested locale.
    public var label: String
    /// Text of `text` actions; nil otherwise.
    public var text: String?
    /// Display order within the situation.
    public var position: Int
}

/// One waypoint of a walking route (`route_waypoint` table).
public struct RouteWaypointInfo: Sendable, Encodable, Hashable {
    /// Position along the route (ascending, not necessarily contiguous).
    public var sequence: Int
    /// POI id (``PlaceResult/id``) or nil for a free point.
    public var poi: Int64?
    /// Latitude in degrees, WGS 84.
    public var lat: Double
    /// Longitude in degrees, WGS 84.
    public var lon: Double
    /// Alert radius in metres (default 25).
    public var radius: Double
    /// The editors' name for the waypoint, else the POI's name in the locale; nil when neither exists.
    public var name: String?
}

/// A curated walking route (`route` table) with its waypoints in order.
public struct WalkingRouteInfo: Sendable, Encodable, Hashable {
    /// Stable route id.
    public var id: String
    /// Name in the requested locale.
    public var name: String
    /// Description in the requested locale; nil when none.
    public var description: String?
    /// Sum of great-circle legs, metres.
    public var lengthMetres: Double
    /// Map region to focus: the waypoints' box with 20 % padding, at least 0.01° per axis.
    public var region: BoundingBox
    /// Display order.
    public var position: Int
    /// Ordered by sequence; empty in ``EditorialReader/routes(locale:)`` (use ``EditorialReader/route(id:locale:)``).
    public var waypoints: [RouteWaypointInfo]
}

/// A UI string of the pack (`string` table): a message, or plural forms keyed by CLDR category. Placeholders
/// are in copy syntax (`{city}`, `{count}`; `{{` and `}}` are literal braces).
///
/// Encoded as JSON the way the web copy files are: a string, or an object of plural forms.
public enum LocalizedString: Sendable, Codable, Hashable {
    /// A plain message.
    case text(String)
    /// Forms by CLDR plural category (`one`, `other`, …).
    case plural([String: String])

    /// Decodes a string as ``text(_:)``, an object of strings as ``plural(_:)``.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .plural(try container.decode([String: String].self))
        }
    }

    /// Encodes ``text(_:)`` as a string, ``plural(_:)`` as an object.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .plural(let forms): try container.encode(forms)
        }
    }
}

