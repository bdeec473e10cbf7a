import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialDuplicateID = RuleDescription(
        "editorial.duplicate_id", .editorial, .error, "A card, situation, action or route id repeats in its file",
        rationale: "Ids link cards to situations, actions and routes; a repeated id makes every link to it ambiguous.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title\ntoilet,Toilets\ntoilet,Public toilets\n",
            passing: "card_id,title\ntoilet,Toilets\npublic_toilet,Public toilets\n"))
}

/// Ids link cards to situations, actions and routes: a repeated id makes every link to it ambiguous. The first
/// item of each id is kept, the others are reported (with a note on the first) and left out.
enum DuplicateIDRule {
    /// The items with their first occurrence of each id, in order; `what` names the kind for messages.
    static func unique<T>(
        _ items: [T], id: KeyPath<T, String>, location: KeyPath<T, SourceLocation>, what: String, bag: DiagnosticBag
    ) -> [T] {
        var first: [String: SourceLocation] = [:]
        var out: [T] = []
        for item in items {
            let key = item[keyPath: id]
            if let previous = first[key] {
                bag.report(Rules.editorialDuplicateID, .used(what, key), at: item[keyPath: location], entity: key,
                    notes: [.init(.firstDefined, at: previous)])
            } else {
                first[key] = item[keyPath: location]
                out.append(item)
            }
        }
        return out
    }
}

extension String {
    fileprivate static func used(_ what: String, _ id: String) -> String { "\(what) id `\(id)` is already used" }
    fileprivate static let firstDefined = "first defined here"
}
