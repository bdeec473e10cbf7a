import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialUnreachable = RuleDescription(
        "editorial.unreachable", .editorial, .warning,
        "A card, situation or action cannot be reached from the home screen",
        rationale: "Content nobody can open is dead weight in the pack and usually a forgotten link or a wrong id.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title,home\ntoilet,Toilets,1\nhidden,Hidden,0\n",
            passing: "card_id,title,home\ntoilet,Toilets,1\nhidden,Hidden,1\n"))
}

/// Cards (with their situations and actions) that no path from a home card reaches: content nobody can open,
/// usually a forgotten link or a wrong id. Paths follow a card's situations and their `card` and `situation`
/// actions. The cards stay in the pack.
enum UnreachableRule {
    static func check(_ content: EditorialContent, bag: DiagnosticBag) {
        let situationsByCard = Dictionary(grouping: content.situations, by: \.card)
        let actionsBySituation = Dictionary(grouping: content.actions, by: \.situation)
        let situationCard = Dictionary(content.situations.map { ($0.id, $0.card) }, uniquingKeysWith: { a, _ in a })
        var reached: Set<String> = []  // card ids
        var queue = content.cards.filter(\.home).map(\.id)
        while let card = queue.popLast() {
            guard reached.insert(card).inserted else { continue }
            for s in situationsByCard[card] ?? [] {
                for a in actionsBySituation[s.id] ?? [] {
                    if a.kind == .card { queue.append(a.target) }
                    if a.kind == .situation, let c = situationCard[a.target] { queue.append(c) }
                }
            }
        }
        for card in content.cards where !reached.contains(card.id) {
            bag.report(Rules.editorialUnreachable, .unreachable(card), at: card.location, entity: card.id)
        }
    }
}

extension String {
    fileprivate static func unreachable(_ card: Card) -> String {
        let note = card.home ? "" : " (home is 0 and no `card` or `situation` action leads to it)"
        return "card `\(card.id)` cannot be reached from the home screen\(note)"
    }
}
