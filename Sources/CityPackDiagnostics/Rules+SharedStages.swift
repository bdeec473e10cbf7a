// Rules that are reported both while reading (CityPackIngest) and while judging the model (CityPackValidate):
// their descriptions sit below both stages, which never import each other.
//
// - `copy.invalid_key`: `CopyReader` checks each key's syntax; `InvalidKeyRule` (Validate) finds keys that collide
//   as Android resource names across locales.
// - `editorial.invalid_action`: `EditorialReader` rejects unknown action kinds; `InvalidActionRule` (Validate)
//   checks targets, texts and phone numbers.

extension Rules {
    public static let copyInvalidKey = RuleDescription(
        "copy.invalid_key", .copy, .error,
        "A copy key is not dotted lowercase words (`offline.weak_network.title`) or collides on Android",
        rationale: "Keys become Android resource names (dots → underscores) and Apple catalog keys; both must be unique.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "App.Download City: \"Download {city}\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let editorialInvalidAction = RuleDescription(
        "editorial.invalid_action", .editorial, .error,
        "An action has an unknown kind, lacks its target or text, or has a malformed phone number",
        rationale: "Apps dispatch on the kind and target; a malformed action cannot be shown.",
        exampleWaiver: "One input file cannot show it: an action only exists under a situation of a card, three files; EditorialRulesTests.invalidAction covers it.")
}
