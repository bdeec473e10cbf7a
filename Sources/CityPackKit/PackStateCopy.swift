import Foundation

/// A copy key with the values of its placeholders (`{percent}`, `{size}`, `{status}`, `{city}`): what an app looks
/// up in a pack's string table (``EditorialReader/string(key:locale:)``) and fills in.
public struct CopyLine: Sendable, Equatable {
    /// The key in templates/copy (`pack.state.downloading`, `download_error.offline.message`, …).
    public var key: String
    /// Placeholder name → value.
    public var values: [String: String]

    package init(_ key: String, _ values: [String: String] = [:]) {
        self.key = key
        self.values = values
    }

    /// The message of ``key`` in `locale` from the copy the library ships (``PackStateCopy/defaults(locale:)``):
    /// state and error lines work before any pack is downloaded. A pack's own table (``text(in:)``) may word
    /// them differently for its city.
    public func text(locale: String) -> String { text(in: PackStateCopy.defaults(locale: locale)) }

    /// ``values`` as positional arguments, in the order the String Catalog (`Localizable.xcstrings`) and Android
    /// `strings.xml` of the shipped copy number them (`%1$@`, `%2$@`: placeholders by first appearance in the
    /// templates' English text), so an app that formats with those files passes `String(format:arguments:)`
    /// exactly this. Empty for a key without placeholders.
    public var arguments: [String] {
        PackStateCopy.argumentOrder(key).map { values[$0] ?? "" }
    }

    /// The message of ``key`` from `table` (a plain text, or a plural's `other` form) with ``values`` filled in;
    /// the key itself when the table lacks it. `{{` and `}}` are literal braces.
    public func text(in table: [String: LocalizedString]) -> String {
        let message: String
        switch table[key] {
        case .text(let text)?: message = text
        case .plural(let forms)?: message = forms["other"] ?? forms.values.sorted().first ?? key
        case nil: return key
        }
        var out = ""
        var rest = Substring(message)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            out += rest[..<open]
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == rest[open] {
                out.append(rest[open])
                rest = rest[rest.index(after: after)...]
            } else if rest[open] == "{", let close = rest[after...].firstIndex(of: "}") {
                let name = String(rest[after..<close])
                out += values[name] ?? "{\(name)}"
                rest = rest[rest.index(after: close)...]
            } else {
                out.append(rest[open])
                rest = rest[after...]
            }
        }
        return out + rest
    }
}

/// What a city's line on the offline screen says for its state, as copy lines: the state or error text, a headline
/// over it ("Update failed" when an installed city failed to update) and the next step's action. The Swift twin of
/// citypack's `describeState` (clients/web/library.js), with the same keys.
public struct PackStateCopy: Sendable, Equatable {
    /// The line under the city's name.
    public var text: CopyLine
    /// A headline above it, or nil.
    public var headline: CopyLine?
    /// The button's label (a failure's next step), or nil.
    public var action: CopyLine?
}

extension PackStateCopy {
    /// The locales the library ships state copy for (the templates' locales), sorted.
    public static let defaultLocales: [String] = Array(Set(defaultEntries.map(\.locale))).sorted()

    /// The state and error copy the library ships for `locale` (else its language, else English): what
    /// ``CopyLine/text(locale:)`` reads.
    public static func defaults(locale: String) -> [String: LocalizedString] {
        let wanted = [locale, String(locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""), "en"]
        let chosen = wanted.first { defaultTables[$0] != nil } ?? "en"
        return defaultTables[chosen] ?? [:]
    }

    static let defaultEntries: [(locale: String, key: String, text: String)] = defaultText.split(separator: "\n").compactMap { line in
        let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return (String(parts[0]), String(parts[1]), String(parts[2]))
    }

    static let defaultTables: [String: [String: LocalizedString]] = defaultEntries.reduce(into: [:]) { tables, entry in
        tables[entry.locale, default: [:]][entry.key] = .text(entry.text)
    }

    /// The placeholders of `key` in the order of first appearance in the templates' English text.
    static func argumentOrder(_ key: String) -> [String] {
        guard case .text(let text)? = defaultTables["en"]?[key] else { return [] }
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == "{" {
                rest = rest[rest.index(after: after)...]
                continue
            }
            guard let close = rest[after...].firstIndex(of: "}") else { break }
            let name = String(rest[after..<close])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

extension PackState {
    /// The copy of this state (keys in templates/copy: `pack.state.*`, `download_error.<reason>.*`).
    /// - Parameters:
    ///   - cityName: The city's display name, for `{city}`.
    ///   - installed: Whether a version of the city is installed: `applying` then says "Updating…", else "Saving for
    ///     offline…".
    ///   - size: Formats a byte count for `{size}` (default ``byteCount(_:)``: "1.5 MB", "13 KB").
    public func copy(cityName: String, installed: Bool, size: (Int64) -> String = PackState.byteCount) -> PackStateCopy {
        switch self {
        case .notDownloaded: return PackStateCopy(text: CopyLine("pack.state.not_downloaded"))
        case .queued: return PackStateCopy(text: CopyLine("pack.state.queued"))
        case .downloading(let bytes, let total):
            let percent = total > 0 ? min(100, bytes * 100 / total) : 0
            return PackStateCopy(text: CopyLine("pack.state.downloading", ["percent": String(percent), "size": size(total)]))
        case .applying: return PackStateCopy(text: CopyLine(installed ? "pack.state.updating" : "pack.state.installing"))
        case .onDisk: return PackStateCopy(text: CopyLine("pack.state.on_disk"))
        case .onDiskOutOfDate(_, _, let updateBytes):
            return PackStateCopy(text: CopyLine("pack.state.update_available", ["size": size(Int64(updateBytes))]))
        case .paused(_, let bytes, let total, let installedVersion):
            let percent = total > 0 ? min(100, bytes * 100 / total) : 0
            return PackStateCopy(
                text: CopyLine("pack.state.paused", ["percent": String(percent), "size": size(total), "city": cityName]),
                headline: installedVersion == nil ? nil : CopyLine("pack.state.updating"),
                action: CopyLine("pack.state.resume"))
        case .failed(let failure, let installedVersion):
            let values = [
                "status": failure.status.map(String.init) ?? "", "size": size(failure.bytesNeeded ?? 0), "city": cityName,
            ]
            return PackStateCopy(
                text: CopyLine(failure.copyKey + ".message", values),
                headline: installedVersion == nil ? nil : CopyLine("pack.state.update_failed"),
                action: CopyLine(failure.copyKey + ".action", values))
        }
    }

    /// "1.5 MB" (10⁶ bytes, one decimal; "0.1 MB" for anything smaller).
    public static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", max(0.1, Double(bytes) / 1_000_000))
    }

    /// The size a state shows, as the web library's `formatBytes` writes it in English: units of 10³ (B, KB, MB,
    /// GB), one decimal below 10 of a unit ("1.5 MB", "13 KB", "700 B"), no trailing ".0"; so a small update is
    /// not shown as "0.1 MB" and both libraries show the same text.
    public static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let scale = unit > 0 && value < 10 ? 10.0 : 1.0
        let rounded = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        let text = rounded == rounded.rounded() ? String(Int64(rounded)) : String(format: "%.1f", rounded)
        return "\(text) \(units[unit])"
    }
}
