/// A category as the pack stores it: id, priority, labels and search synonyms per locale.
public struct PackCategory: Sendable, Hashable, Codable {
    /// snake_case id such as `toilet` or `metro`.
    public var id: String
    /// Lower wins when a POI matches several categories.
    public var priority: Int
    /// Display label per locale.
    public var labels: [String: String]
    /// Search terms per locale (`toilet` ⇄ `wc`, `restroom`, `Toilette`).
    public var synonyms: [String: [String]]
    /// Whether POIs of this category normally have a name (false for toilets, ATMs, drinking water).
    public var expectsName: Bool

    public init(
        id: String, priority: Int, labels: [String: String], synonyms: [String: [String]] = [:], expectsName: Bool = true
    ) {
        self.id = id
        self.priority = priority
        self.labels = labels
        self.synonyms = synonyms
        self.expectsName = expectsName
    }
}

extension PackCategory {
    /// The categories of GTFS stops by location_type (`transit_stop` for 0 and others, `transit_station` for 1,
    /// `transit_entrance` for 2), with labels: the pack carries them like the profile's so that an unnamed
    /// stop is described by its category ("Entrance", "Eingang") in the reader's locale. Priorities after the
    /// profile's.
    public static let stopCategories: [PackCategory] = [
        PackCategory(
            id: "transit_stop", priority: 100,
            labels: ["en": "Stop", "fr": "Arrêt", "de": "Haltestelle", "it": "Fermata", "es": "Parada", "ru": "Остановка"],
            expectsName: true),
        PackCategory(
            id: "transit_station", priority: 101,
            labels: ["en": "Station", "fr": "Gare", "de": "Station", "it": "Stazione", "es": "Estación", "ru": "Станция"],
            expectsName: true),
        PackCategory(
            id: "transit_entrance", priority: 102,
            labels: ["en": "Entrance", "fr": "Entrée", "de": "Eingang", "it": "Ingresso", "es": "Entrada", "ru": "Вход"],
            expectsName: false),
    ]

    /// The profile category a GTFS route_type stands for, so that a stop is found by the words of the modes that
    /// serve it: basic types 0 tram, 1 metro, 2 rail, 3 bus, 4 ferry, 5 cable tram, 11 trolleybus, 12 monorail, and
    /// the extended types by hundreds (100 rail, 200 coach, 400 urban rail, 700 bus, 800 trolleybus, 900 tram,
    /// 1000/1200 water). Nil for modes no category names (aerial lifts, funiculars, taxis, …).
    public static func category(forRouteType type: Int32) -> String? {
        switch type {
        case 0, 5, 900...999: "tram_stop"
        case 1, 400...499: "metro"
        case 2, 12, 100...199: "train_station"
        case 3, 11, 200...299, 700...899: "bus_stop"
        case 4, 1000...1099, 1200...1299: "ferry_terminal"
        default: nil
        }
    }
}
