/// Recognises the locale part of `name:xx` keys: a BCP 47-like tag such as `fr`, `de`, `zh-Hant`, `sr-Latn`,
/// `pt-BR`, `es-419`, `de-CH-1901`.
///
/// Accepted: a 2–3 letter lowercase language, then optional `-Script` (4 letters, first uppercase), optional
/// `-REGION` (2 uppercase letters or 3 digits) and `-variant` subtags (5–8 alphanumerics, or a digit and 3
/// alphanumerics). Rejects the many non-locale suffixes OSM uses (`name:prefix`, `name:etymology`, `name:left`,
/// `name:botanical`, `name:zh_pinyin`).
package enum NameLocale {
    /// Whether `tag` is an acceptable locale tag.
    package static func isLocale(_ tag: Substring) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.utf8.allSatisfy({ $0 >= 97 && $0 <= 122 })
        else { return false }
        var stage = 0  // 0: after language, 1: after script, 2: after region
        for part in parts.dropFirst() {
            let u = Array(part.utf8)
            let isUpper = { (b: UInt8) in b >= 65 && b <= 90 }
            let isLower = { (b: UInt8) in b >= 97 && b <= 122 }
            let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
            if stage < 1, u.count == 4, isUpper(u[0]), u.dropFirst().allSatisfy(isLower) {
                stage = 1
            } else if stage < 2, (u.count == 2 && u.allSatisfy(isUpper)) || (u.count == 3 && u.allSatisfy(isDigit)) {
                stage = 2
            } else if (5...8).contains(u.count) && u.allSatisfy({ isLower($0) || isDigit($0) })
                || (u.count == 4 && isDigit(u[0]) && u.allSatisfy({ isLower($0) || isDigit($0) }))
            {
                stage = 3
            } else {
                return false
            }
        }
        return true
    }
}
