/// Folds a user types without, applied to the text the `search` table indexes and to every query, in both readers
/// (`clients/web/tokens.js` `searchFold` holds the same table; docs/WEB.md lists it).
///
/// SQLite's `unicode61` tokenizer (remove_diacritics 2) lower-cases and drops diacritics (`Café` → `cafe`), but
/// letters that are not a base letter plus a mark stay as they are: `ß` is not `ss`, `ø` is not `o`. A Swiss user
/// always writes `Dorfstrasse`, a Dane on a foreign keyboard `Kobenhavn`. So before tokenizing, both the indexed
/// text and the query replace these letters (either case) by what people type instead. Pure; `Sendable`.
package enum SearchFold {
    /// Letter → replacement, lower-case; upper-case forms map to the same text (the tokenizer lower-cases it).
    package static let table: [(Character, String)] = [
        ("ß", "ss"), ("ẞ", "ss"),
        ("æ", "ae"), ("Æ", "ae"),
        ("œ", "oe"), ("Œ", "oe"),
        ("ø", "o"), ("Ø", "o"),
        ("đ", "d"), ("Đ", "d"),
        ("ð", "d"), ("Ð", "d"),
        ("ł", "l"), ("Ł", "l"),
        ("þ", "th"), ("Þ", "th"),
        ("ı", "i"),
        ("ħ", "h"), ("Ħ", "h"),
        ("ŧ", "t"), ("Ŧ", "t"),
        ("ĳ", "ij"), ("Ĳ", "ij"),
        ("ﬁ", "fi"), ("ﬂ", "fl"),
    ]

    private static let map: [Character: String] = Dictionary(table.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
    private static let scalars: Set<Unicode.Scalar> = Set(table.compactMap { $0.0.unicodeScalars.first })

    /// `text` with every letter of ``table`` replaced; unchanged (and not copied) when it has none.
    package static func apply(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: scalars.contains) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 4)
        for ch in text {
            if let folded = map[ch] { out += folded } else { out.append(ch) }
        }
        return out
    }
}
