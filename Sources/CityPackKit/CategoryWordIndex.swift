import CityPackSQLite

/// The words that name each category, keyed by their tokens as the pack's search tokenizer makes them (SQLite's
/// own, ``CityPackSQLite/FTS5Tokenizer``: case and diacritics folded as `search` folds them), so a query names a
/// category exactly when its tokens are one of the category's words, whole (`toilet`, `U-Bahn`, `fast food`; not
/// `food court`). One dictionary lookup per query.
///
/// The web writer keeps the same words in a TEMP FTS5 table (``CityPackFormat/PackSchema/CategoryTerm``) with
/// sentinel tokens around each; both give the same categories.
struct CategoryWordIndex {
    /// A word's category and the locale it is a word of (nil: the pack's own terms; `und`: the category id).
    struct Row: Hashable {
        var category: String
        var locale: String?
    }

    private let tokenizer: FTS5Tokenizer
    private var byTokens: [[UInt8]: [Row]] = [:]

    init(tokenizer: FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }

    /// The key of a text: its tokens joined by a zero byte (no token holds one); nil when it has none.
    private func key(_ text: String) -> [UInt8]? {
        let tokens = tokenizer.tokens(text)
        guard !tokens.isEmpty else { return nil }
        return Array(tokens.joined(separator: [0]))
    }

    /// Files a word (already ``CityPackFormat/SearchFold``ed and CJK-expanded) under a category.
    mutating func add(_ word: String, category: String, locale: String?) {
        guard let key = key(word) else { return }
        byTokens[key, default: []].append(Row(category: category, locale: locale))
    }

    /// Sorts each word's rows by category, then locale (nil first), without repeats. Call once every word is in.
    mutating func finish() {
        for (key, rows) in byTokens { byTokens[key] = Array(Set(rows)).sorted(by: Self.precedes) }
    }

    private static func precedes(_ a: Row, _ b: Row) -> Bool {
        if a.category != b.category { return a.category < b.category }
        switch (a.locale, b.locale) {
        case (nil, nil), (.some, nil): return false
        case (nil, .some): return true
        case let (x?, y?): return x < y
        }
    }

    /// The rows of the words equal to the text's tokens, by category then locale.
    func rows(naming text: String) -> [Row] {
        key(text).flatMap { byTokens[$0] } ?? []
    }
}
