import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

// The description of `editorial.invalid_action` is in CityPackDiagnostics (Rules+SharedStages.swift): the
// editorial reader reports unknown action kinds under the same code.

/// An action apps cannot dispatch: a `text` action with a target or without its text, another kind without a
/// target, a `nearby` category the profile does not define, or a `call` target that is not a phone number. The
/// action is left out of the pack.
enum InvalidActionRule {
    /// Whether the action is well formed; reports why not.
    static func check(_ a: Action, context: EditorialContext, bag: DiagnosticBag) -> Bool {
        let problem: String
        if a.kind == .text {
            if !a.target.isEmpty {
                problem = .textWithTarget(a.target)
            } else if a.text.isEmpty {
                problem = .textWithoutText
            } else {
                return true
            }
        } else if a.target.isEmpty {
            problem = .withoutTarget(a.kind)
        } else if a.kind == .nearby && !context.knownCategories.contains(a.target) {
            problem = .unknownCategory(a.target)
        } else if a.kind == .call && !isPhoneNumber(a.target) {
            problem = .notAPhoneNumber(a.target)
        } else {
            return true
        }
        bag.report(Rules.editorialInvalidAction, .invalid(a, problem), at: a.targetLocation, entity: a.id)
        return false
    }

    /// A phone number: optional `+`, then digits with spaces, dashes, dots or parentheses; 2 to 15 digits (short
    /// emergency numbers such as 17 included).
    static func isPhoneNumber(_ text: String) -> Bool {
        var digits = 0
        for (i, ch) in text.enumerated() {
            if ch.isASCII && ch.isNumber {
                digits += 1
            } else if ch == "+" {
                if i != 0 { return false }
            } else if !" -.()".contains(ch) {
                return false
            }
        }
        return (2...15).contains(digits)
    }
}

extension String {
    fileprivate static func invalid(_ a: Action, _ problem: String) -> String { "action `\(a.id)`: \(problem)" }

    fileprivate static func textWithTarget(_ target: String) -> String {
        "a `text` action has no target (got `\(target)`)"
    }

    fileprivate static let textWithoutText = "a `text` action needs its `text`"
    fileprivate static func withoutTarget(_ kind: ActionKind) -> String { "a `\(kind.rawValue)` action needs a `target`" }
    fileprivate static func unknownCategory(_ target: String) -> String { "`\(target)` is not a category of the profile" }
    fileprivate static func notAPhoneNumber(_ target: String) -> String {
        "`\(target)` is not a phone number (e.g. +377 93 15 30 15)"
    }
}
