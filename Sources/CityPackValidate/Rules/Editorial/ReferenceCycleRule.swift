import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialReferenceCycle = RuleDescription(
        "editorial.reference_cycle", .editorial, .error, "Card and situation links form a cycle",
        rationale: "An action that leads back to where it came from traps the user in a loop of screens.",
        exampleWaiver: "One input file cannot show it: a cycle spans cards, situations and actions, three files; EditorialRulesTests.referenceCycle covers it.")
}

/// Card and situation links that form a cycle trap the user in a loop of screens. Each cycle is reported once,
/// at the action that closes it. Graph: a card → its situations; a situation → the targets of its `card` and
/// `situation` actions.
enum ReferenceCycleRule {
    fileprivate enum Node: Hashable {
        case card(String)
        case situation(String)
    }

    static func check(_ content: EditorialContent, bag: DiagnosticBag) {
        var edges: [Node: [(Node, Action?)]] = [:]
        for s in content.situations { edges[.card(s.card), default: []].append((.situation(s.id), nil)) }
        for a in content.actions {
            switch a.kind {
            case .card: edges[.situation(a.situation), default: []].append((.card(a.target), a))
            case .situation: edges[.situation(a.situation), default: []].append((.situation(a.target), a))
            default: break
            }
        }
        var state: [Node: Int] = [:]  // 1 on the stack, 2 done
        var path: [Node] = []
        var reported: Set<String> = []
        func visit(_ node: Node) {
            state[node] = 1
            path.append(node)
            for (next, action) in edges[node] ?? [] {
                if state[next] == 1, let action {
                    let start = path.lastIndex(of: next) ?? 0
                    if reported.insert(action.id).inserted {
                        bag.report(Rules.editorialReferenceCycle, .closesCycle(action, Array(path[start...]) + [next]),
                            at: action.targetLocation, entity: action.id)
                    }
                } else if state[next] == nil {
                    visit(next)
                }
            }
            path.removeLast()
            state[node] = 2
        }
        let roots = content.cards.map { Node.card($0.id) } + content.situations.map { Node.situation($0.id) }
        for root in roots where state[root] == nil { visit(root) }
    }

    fileprivate static func name(_ node: Node) -> String {
        switch node {
        case .card(let id): "card `\(id)`"
        case .situation(let id): "situation `\(id)`"
        }
    }
}

extension String {
    fileprivate static func closesCycle(_ action: Action, _ loop: [ReferenceCycleRule.Node]) -> String {
        "action `\(action.id)` closes a cycle: \(loop.map(ReferenceCycleRule.name).joined(separator: " → "))"
    }
}
