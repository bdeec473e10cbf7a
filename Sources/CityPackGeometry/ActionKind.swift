/// What an editorial action does when tapped: the values of the pack's `action.kind` column, shared by the
/// editorial reader that checks them (CityPackIngest), the writer and the app-side reader. A pack may hold kinds
/// a newer writer added; readers skip actions whose kind they do not know.
public enum ActionKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Show POIs of a category near the user; target = category id (`toilet`).
    case nearby
    /// Call a phone number; target = number in international form (`+377 93 15 30 15`).
    case call
    /// Open a walking route; target = route id.
    case route
    /// Show a stop's next departures; target = GTFS `stop_id`.
    case departures
    /// Show a text (the action's `text` column); no target.
    case text
    /// Open another card; target = card id.
    case card
    /// Open another situation; target = situation id.
    case situation
}
