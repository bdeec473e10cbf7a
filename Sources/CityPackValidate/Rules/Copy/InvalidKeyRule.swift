import CityPackDiagnostics
import CityPackModel

// The description of `copy.invalid_key` is in CityPackDiagnostics (Rules+SharedStages.swift): the copy reader
// reports malformed keys under the same code.

/// Keys become Android resource names with dots turned into underscores (``CopyKeys/androidName(_:)``), so
/// `a.b_c` and `a_b.c` would collide there. Keys of every locale are compared in sorted order; the later one is
/// reported.
enum InvalidKeyRule {
    static func check(_ table: CopyTable, bag: DiagnosticBag) {
        var androidNames: [String: String] = [:]
        for key in Set(table.entries.values.flatMap(\.keys)).sorted() {
            let name = CopyKeys.androidName(key)
            if let other = androidNames[name] {
                let entry = table.entries.values.compactMap { $0[key] }.first
                bag.report(Rules.copyInvalidKey, .collides(key, other, name), at: entry?.location, entity: key)
            } else {
                androidNames[name] = key
            }
        }
    }
}

extension String {
    fileprivate static func collides(_ key: String, _ other: String, _ name: String) -> String {
        "`\(key)` and `\(other)` both become the Android resource name `\(name)`; rename one"
    }
}
