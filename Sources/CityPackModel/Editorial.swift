import CityPackDiagnostics
import CityPackGeometry

/// Text in several locales, e.g. a card title. The default locale's text is always present after ingest.
public typealias LocalizedText = [String: String]

/// A problem card an app shows on its home screen ("Toilet", "ATM", …); it opens micro-situations.
public struct Card: Sendable, Hashable {
    /// Stable id from `cards.csv` (`card_id`), e.g. `toilet`.
    public var id: String
    /// Title per locale.
    public var title: LocalizedText
    /// Icon name the app maps to a symbol (free text, e.g. `toilet`); nil when absent.
    public var icon: String?
    /// Whether the card is listed on the home screen (`home`, default true). Other cards are reached only
    /// through `card` actions.
    public var home: Bool
    /// Row position in `cards.csv` (0-based): the display order.
    public var position: Int
    public var location: SourceLocation

    public init(id: String, title: LocalizedText, icon: String? = nil, home: Bool = true, position: Int, location: SourceLocation) {
        self.id = id
        self.title = title
        self.icon = icon
        self.home = home
        self.position = position
        self.location = location
    }
}

/// A micro-situation inside a card ("I need a toilet now", "The toilet is locked").
public struct Situation: Sendable, Hashable {
    public var id: String
    /// The card it belongs to.
    public var card: String
    public var title: LocalizedText
    /// Optional explanatory text per locale.
    public var body: LocalizedText
    /// Row position in `situations.csv` (0-based); situations of a card are shown in this order.
    public var position: Int
    public var location: SourceLocation
    /// Where `card_id` is, for reference diagnostics.
    public var cardLocation: SourceLocation

    public init(
        id: String, card: String, title: LocalizedText, body: LocalizedText = [:], position: Int,
        location: SourceLocation, cardLocation: SourceLocation
    ) {
        self.id = id
        self.card = card
        self.title = title
        self.body = body
        self.position = position
        self.location = location
        self.cardLocation = cardLocation
    }
}

/// A concrete step offered in a situation.
public struct Action: Sendable, Hashable {
    public var id: String
    /// The situation it belongs to.
    public var situation: String
    public var kind: ActionKind
    /// Category id, phone number, route id, stop id, card id or situation id (see ``ActionKind``); empty for text.
    public var target: String
    /// Button label per locale.
    public var label: LocalizedText
    /// Text shown by `text` actions, per locale.
    public var text: LocalizedText
    public var position: Int
    public var location: SourceLocation
    public var situationLocation: SourceLocation
    public var targetLocation: SourceLocation

    public init(
        id: String, situation: String, kind: ActionKind, target: String, label: LocalizedText, text: LocalizedText = [:],
        position: Int, location: SourceLocation, situationLocation: SourceLocation, targetLocation: SourceLocation
    ) {
        self.id = id
        self.situation = situation
        self.kind = kind
        self.target = target
        self.label = label
        self.text = text
        self.position = position
        self.location = location
        self.situationLocation = situationLocation
        self.targetLocation = targetLocation
    }
}

/// How a waypoint names its place: a POI of the pack, or a free point.
public enum WaypointPlace: Sendable, Hashable {
    /// A POI by stable id (`osmId × 4 + kind`), as written or resolved from an OSM reference.
    case poi(Int64)
    /// A free coordinate.
    case point(Coordinate)
}

/// One stop of a curated walking route.
public struct Waypoint: Sendable, Hashable {
    public var route: String
    /// `sequence` from the CSV; waypoints are ordered by it.
    public var sequence: Int
    public var place: WaypointPlace
    /// Resolved position (a POI's coordinate after validation); nil until resolved.
    public var coordinate: Coordinate?
    /// Name per locale (optional for POIs, which have their own names).
    public var name: LocalizedText
    /// Alert radius in metres (default 25): apps alert when the user comes this close.
    public var radius: Double
    public var location: SourceLocation
    /// Where the POI reference or the coordinate is, for diagnostics.
    public var placeLocation: SourceLocation

    public init(
        route: String, sequence: Int, place: WaypointPlace, coordinate: Coordinate? = nil, name: LocalizedText = [:],
        radius: Double = Waypoint.defaultRadius, location: SourceLocation, placeLocation: SourceLocation
    ) {
        self.route = route
        self.sequence = sequence
        self.place = place
        self.coordinate = coordinate
        self.name = name
        self.radius = radius
        self.location = location
        self.placeLocation = placeLocation
    }

    /// The alert radius when `radius` is empty: 25 m, one proximity bucket.
    public static let defaultRadius: Double = 25
}

/// A curated walking route: ordered waypoints, its length and the map region to show.
public struct WalkingRoute: Sendable, Hashable {
    public var id: String
    public var name: LocalizedText
    public var description: LocalizedText
    /// Ordered by sequence after ingest.
    public var waypoints: [Waypoint]
    public var position: Int
    public var location: SourceLocation

    public init(
        id: String, name: LocalizedText, description: LocalizedText = [:], waypoints: [Waypoint] = [], position: Int,
        location: SourceLocation
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.waypoints = waypoints
        self.position = position
        self.location = location
    }
}

/// Everything the editorial CSV of a city holds.
public struct EditorialContent: Sendable, Hashable {
    public var cards: [Card]
    public var situations: [Situation]
    public var actions: [Action]
    public var routes: [WalkingRoute]
    /// Waypoints whose `route_id` is not in `routes.csv` (reported by the validator, never packed).
    public var orphanWaypoints: [Waypoint] = []

    public init(cards: [Card] = [], situations: [Situation] = [], actions: [Action] = [], routes: [WalkingRoute] = []) {
        self.cards = cards
        self.situations = situations
        self.actions = actions
        self.routes = routes
    }

    public var isEmpty: Bool { cards.isEmpty && situations.isEmpty && actions.isEmpty && routes.isEmpty }
}
