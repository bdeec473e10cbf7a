/// Chinese, Japanese and Korean text as the pack's `search` table indexes it: every run of CJK characters becomes
/// its overlapping pairs of characters (bigrams), so words inside names are found.
///
/// SQLite's `unicode61` tokenizer makes one token of a run of letters; CJK scripts write words without spaces, so
/// "海洋博物館" (ocean museum) would be one token that "博物館" (museum) never matches. The writer indexes
/// "海洋 洋博 博物 物館" instead (both columns of `search`), and a reader turns each query word the same way
/// into a phrase of consecutive bigrams ("博物 物館"), which FTS5 matches in place. A one-character run stays one
/// token. Other text passes through unchanged, with spaces around CJK runs so that "Tokyo駅" is "Tokyo 駅".
/// clients/web/tokens.js (`cjkBigrams`) does exactly the same; both are tested on the same cases.
package enum CJKBigrams {
    /// Whether a scalar belongs to a script written without spaces between words, as indexed here: CJK ideographs
    /// (unified, extensions A–F, compatibility), hiragana, katakana (with the halfwidth forms and the prolonged
    /// sound mark), and Hangul syllables and jamo.
    @inlinable
    package static func isCJK(_ v: UInt32) -> Bool {
        switch v {
        case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: true  // kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true  // ideographs
        case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: true  // Hangul
        default: false
        }
    }

    /// `text` with each CJK run replaced by its bigrams, space-separated; the text itself when it has none.
    package static func expand(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isCJK($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        var run: [Unicode.Scalar] = []
        func flush() {
            guard !run.isEmpty else { return }
            if let last = out.last, last != " " { out.append(" ") }
            if run.count == 1 {
                out.append(run[0])
            } else {
                for i in 0..<(run.count - 1) {
                    if i > 0 { out.append(" ") }
                    out.append(run[i])
                    out.append(run[i + 1])
                }
            }
            out.append(" ")
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if isCJK(scalar.value) {
                run.append(scalar)
            } else {
                flush()
                if !(scalar == " " && out.last == " ") { out.append(scalar) }
            }
        }
        flush()
        while out.last == " " { out.removeLast() }
        return String(out)
    }
}
