import Foundation

/// Fixed-point text of numbers for people: `printf`'s `%.Nf`, but never `-0.0000` (a value that rounds to zero
/// prints as zero, whatever its sign: a coordinate just west of Greenwich or south of the equator).
package enum DecimalText {
    /// `value` with `places` digits after the point.
    package static func fixed(_ value: Double, places: Int) -> String {
        let text = String(format: "%.\(places)f", value)
        guard text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) else { return text }
        return String(text.dropFirst())
    }
}
