import CityPackDiagnostics
import Foundation

/// Typed access to one GTFS row that reports `csv.missing_required_field` and `csv.invalid_value` as it reads.
///
/// A required cell in a column the header lacks is not reported again per row (the scanner already reported
/// `csv.missing_required_column` once).
struct GTFSCells {
    let row: CSVRow
    let bag: DiagnosticBag
    /// Column whose value names the row's entity.
    let key: Int?
    /// Collects IDs with control or non-ASCII characters, one warning per distinct value (nil: report each).
    let ids: NonASCIIIDs?

    init(_ row: CSVRow, bag: DiagnosticBag, key: Int?, ids: NonASCIIIDs? = nil) {
        self.row = row
        self.bag = bag
        self.key = key
        self.ids = ids
    }

    /// Entity label for diagnostics, e.g. `stop_id=S1`; built only when something is reported.
    var entity: String? {
        guard let k = key, let id = row.string(k) else { return nil }
        return "\(row.header.names[k])=\(id)"
    }

    var line: Int32 { Int32(truncatingIfNeeded: row.line) }

    func missing(_ column: Int?, _ name: String) {
        guard let c = column else { return }
        bag.report(Rules.csvMissingRequiredField, "required field `\(name)` is empty", at: row.location(c),
            entity: entity)
    }

    func invalid(_ column: Int, _ what: String) {
        let value = row.string(column) ?? ""
        bag.report(Rules.csvInvalidValue, "`\(row.header.names[column])` value `\(value)` is not \(what)",
            at: row.location(column), entity: entity)
    }

    func string(_ c: Int?) -> String? { row.string(c) }

    /// A required string; reports when empty.
    func required(_ c: Int?, _ name: String) -> String? {
        if let s = row.string(c) { return s }
        missing(c, name)
        return nil
    }

    /// An integer in `range`; nil when empty (reported if `required`) or invalid (reported).
    func int(_ c: Int?, _ name: String, in range: ClosedRange<Int>, required: Bool = false) -> Int? {
        guard let col = c, !row.isEmpty(col) else {
            if required { missing(c, name) }
            return nil
        }
        guard let v = CSVValues.int(row.raw(col)), range.contains(v) else {
            invalid(col, "an integer in \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return v
    }

    func double(_ c: Int?, _ name: String, required: Bool = false) -> Double? {
        guard let col = c, !row.isEmpty(col) else {
            if required { missing(c, name) }
            return nil
        }
        guard let v = CSVValues.double(row.raw(col)) else {
            invalid(col, "a number")
            return nil
        }
        return v
    }

    func time(_ c: Int?, _ name: String, required: Bool = false) -> Int32? {
        guard let col = c, !row.isEmpty(col) else {
            if required { missing(c, name) }
            return nil
        }
        guard let v = CSVValues.time(row.raw(col)) else {
            invalid(col, "a time HH:MM:SS")
            return nil
        }
        return v
    }

    func date(_ c: Int?, _ name: String, required: Bool = false) -> Int32? {
        guard let col = c, !row.isEmpty(col) else {
            if required { missing(c, name) }
            return nil
        }
        guard let v = CSVValues.date(row.raw(col)) else {
            invalid(col, "a date YYYYMMDD")
            return nil
        }
        return v
    }

    func color(_ c: Int?) -> String? {
        guard let col = c, !row.isEmpty(col) else { return nil }
        guard CSVValues.isColor(row.raw(col)) else {
            invalid(col, "a colour RRGGBB")
            return nil
        }
        return row.string(col)
    }

    func url(_ c: Int?, _ name: String, required: Bool = false) -> String? {
        guard let s = row.string(c) else {
            if required { missing(c, name) }
            return nil
        }
        guard CSVValues.isURL(s) else {
            invalid(c!, "an http(s) URL")
            return nil
        }
        return s
    }

    func timezone(_ c: Int?, _ name: String, required: Bool = false, cache: inout [String: Bool]) -> String? {
        guard let s = row.string(c) else {
            if required { missing(c, name) }
            return nil
        }
        let ok: Bool
        if let known = cache[s] {
            ok = known
        } else {
            ok = s.contains("/") || s == "UTC" ? TimeZone(identifier: s) != nil : false
            cache[s] = ok
        }
        guard ok else {
            invalid(c!, "an IANA timezone such as `Europe/Rome`")
            return nil
        }
        return s
    }

    /// An ID; warns about control or non-ASCII characters.
    func id(_ c: Int?, _ name: String, required: Bool = true) -> String? {
        guard let col = c, !row.isEmpty(col) else {
            if required { missing(c, name) }
            return nil
        }
        if let ids {
            ids.check(row, col, name)
        } else if NonASCIIIDs.isUnusual(row.raw(col)) {
            bag.report(Rules.csvNonPrintableInID, "`\(name)` contains control or non-ASCII characters",
                at: row.location(col), entity: entity)
        }
        return row.string(col)
    }
}

/// IDs with control or non-ASCII characters in one table, gathered so that each distinct value of each column is
/// one `csv.non_printable_in_id` warning with its count and first row (a feed whose stop names its stops in
/// Cyrillic repeats each such ID in thousands of stop_times rows). Every ID column goes through it, stop_times'
/// `trip_id` and `stop_id` included.
final class NonASCIIIDs {
    private var found: [String: (location: SourceLocation, column: String, value: String, count: Int)] = [:]
    private var order: [String] = []

    /// Whether an ID's bytes hold a control character or a byte outside ASCII.
    static func isUnusual(_ raw: UnsafeRawBufferPointer) -> Bool { raw.contains { $0 < 0x20 || $0 >= 0x7F } }

    /// Records the cell at `column` (named `name`) when it is unusual.
    func check(_ row: CSVRow, _ column: Int, _ name: String) {
        guard !row.isEmpty(column), Self.isUnusual(row.raw(column)) else { return }
        let value = row.string(column) ?? ""
        let key = name + "\u{1F}" + value
        if found[key] != nil {
            found[key]!.count += 1
        } else {
            found[key] = (row.location(column), name, value, 1)
            order.append(key)
        }
    }

    /// Reports what was gathered (in order of first appearance) and starts afresh.
    func flush(into bag: DiagnosticBag) {
        for key in order {
            guard let f = found[key] else { continue }
            let rows = f.count == 1 ? "" : " (\(f.count) rows; the first is here)"
            bag.report(Rules.csvNonPrintableInID,
                "`\(f.column)` value `\(f.value)` contains control or non-ASCII characters\(rows)",
                at: f.location, entity: "\(f.column)=\(f.value)")
        }
        found.removeAll()
        order.removeAll()
    }
}
