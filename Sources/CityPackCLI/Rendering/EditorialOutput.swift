import CityPackBuild
import CityPackKit
import Foundation

/// Text and JSON renderings of a pack's cards, routes and strings for `citypack inspect`.
enum EditorialOutput {
    struct CardTree: Encodable {
        var id: String
        var title: String
        var icon: String?
        var home: Bool
        var position: Int
        var situations: [SituationTree]
    }

    struct SituationTree: Encodable {
        var id: String
        var title: String
        var body: String?
        var actions: [ActionInfo]
    }

    static func render(
        _ reader: PackReader, cards: Bool, routes: Bool, strings: String?, locale: String?, format: DataFormat
    ) throws -> String {
        if cards {
            var tree: [CardTree] = []
            for card in try reader.editorial.cards(locale: locale) {
                var situations: [SituationTree] = []
                for s in try reader.editorial.situations(card: card.id, locale: locale) {
                    situations.append(SituationTree(
                        id: s.id, title: s.title, body: s.body, actions: try reader.editorial.actions(situation: s.id, locale: locale)))
                }
                tree.append(CardTree(id: card.id, title: card.title, icon: card.icon, home: card.home,
                    position: card.position, situations: situations))
            }
            if format == .json {
                struct Output: Encodable { var cards: [CardTree] }
                return DiagnosticRenderer.encode(Output(cards: tree))
            }
            var text = ""
            for card in tree {
                text += "card \(card.id): \(card.title)\(card.home ? "" : " (not on the home screen)")\n"
                for s in card.situations {
                    text += "  situation \(s.id): \(s.title)\n"
                    for a in s.actions {
                        let target = a.target.map { " \($0)" } ?? ""
                        text += "    action \(a.id) [\(a.kind.rawValue)\(target)]: \(a.label)\n"
                    }
                }
            }
            return text.isEmpty ? "no cards\n" : text
        }
        if routes {
            var list: [WalkingRouteInfo] = []
            for r in try reader.editorial.routes(locale: locale) {
                if let full = try reader.editorial.route(id: r.id, locale: locale) { list.append(full) }
            }
            if format == .json {
                struct Output: Encodable { var routes: [WalkingRouteInfo] }
                return DiagnosticRenderer.encode(Output(routes: list))
            }
            var text = ""
            for r in list {
                let g = r.region
                text += "route \(r.id): \(r.name), \(Int(r.lengthMetres.rounded())) m, \(r.waypoints.count) waypoints, region [\(g.minLon), \(g.minLat), \(g.maxLon), \(g.maxLat)]\n"
                for w in r.waypoints {
                    let poi = w.poi.map { " poi \($0)" } ?? ""
                    text += "  \(w.sequence). \(w.name ?? "(unnamed)") at \(w.lat + 0.0),\(w.lon + 0.0) alert \(Int(w.radius)) m\(poi)\n"
                }
            }
            return text.isEmpty ? "no routes\n" : text
        }
        let locale = strings ?? "en"
        let table = try reader.editorial.strings(locale: locale)
        if format == .json {
            struct Output: Encodable {
                var locale: String
                var strings: [String: LocalizedString]
            }
            return DiagnosticRenderer.encode(Output(locale: locale, strings: table))
        }
        var text = ""
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .text(let t): text += "\(key) = \(t.debugDescription)\n"
            case .plural(let forms):
                text += "\(key) =\n"
                for category in ["zero", "one", "two", "few", "many", "other"] {
                    if let f = forms[category] { text += "  \(category): \(f.debugDescription)\n" }
                }
            }
        }
        return text.isEmpty ? "no strings\n" : text
    }
}
