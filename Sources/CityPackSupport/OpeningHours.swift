import Foundation

/// OSM `opening_hours` values: parsed and normalised (``OpeningHours/parse(_:)``), stored in a pack as a short ASCII
/// string (``OpeningHours/compact``), and evaluated at a local wall-clock time (``OpeningHours/state(at:)``).
/// `clients/web/opening-hours.js` reads the same compact string and gives exactly the same answers.
///
/// Supported: `24/7`; weekdays (`Mo-Fr`, `Mo,We,Fr`, wrapping `Sa-Mo`); `PH` and `SH`; time ranges, lists, ranges past
/// midnight (`22:00-02:00`, `-26:00`, up to `48:00`) and open ends (`18:00+`, `14:00-18:00+`); `open`, `off`,
/// `closed`, `unknown`; comments (`"by appointment"`); years (`2024`, `2024-2026`); months and dates (`Jan-Mar`,
/// `Dec 24-26`, `Jun 15-Sep 15`, `Nov 19,Dec 25`); `week 01-26` (ISO weeks, optional `/step`); rule separators `;`,
/// `,` and `||`. Everything else (sunrise/sunset, easter, `Mo[1]`, holiday offsets) is a ``ParseError``.
///
/// Evaluation, for each day D, goes through the rules in order, each rule contributing its time spans on D (if its
/// selectors match D) and the part of its spans past 24:00 (if its selectors match D-1):
/// - `;` (normal) rule matching D: replaces everything earlier rules said about D with its contribution (the rest of
///   the day closed); a closed rule *with* time spans only closes those spans. Matching only D-1: its spill is laid
///   over the day.
/// - `,` (additional) rule: its contribution is laid over the day, nothing is cleared.
/// - `||` (fallback) rule: acts as a normal rule on days no earlier rule matched, and is ignored on the others.
/// A rule without time spans covers the whole day. A rule whose only modifier is a comment is `unknown`. An open end
/// is `unknown` from its start (or range end) to 24:00. The pack has no holiday calendar: when a rule mentions `PH`
/// or `SH`, every combination of "D-1 / D is (not) a public / school holiday" is evaluated, and a minute where they
/// differ is `unknown`.
///
/// ## Compact encoding (``compact``, ``init(compact:)``; ASCII, canonical)
/// ```
/// compact := rule { op rule }
/// op      := ";"  normal  |  ","  additional  |  "|"  fallback          (the op before a rule is its own)
/// rule    := "a"  (only a rule with nothing else: every day, all day, open)
///          | { "y" YYYY YYYY } { "d" MMDD MMDD } { "k" WW WW SS } [ "w" HHH ] { span } [ "x" | "u" ] [ comment ]
/// span    := HHMM HHMM          start and end, decimal hours:minutes; start < 2400, start < end <= 4800
///          | "+" HHMM HHMM      open end: open from start to end, unknown from end to 2400
/// comment := '"' text '"'       text: UTF-8 with bytes outside 0x20...0x7E and '%', '"' written as %XX (uppercase)
/// ```
/// `y`: year range (inclusive). `d`: month-day range, inclusive, wrapping over the new year when from > to; a month
/// alone is day 01 to day 31. `k`: ISO week range (wrapping when from > to) and step. `w`: 3 hex digits, bit 0 Monday
/// … bit 6 Sunday, bit 7 PH, bit 8 SH, bit 9 "the holidays AND the weekdays" (`PH Mo-Fr`), else either matches; no
/// `w` is every day. Tokens of the same letter are alternatives (any matches), different letters must all match.
/// `x` closed, `u` unknown, neither open. Tokens come in the order above; no spans means the whole day.
/// Example: `Mo-Fr 08:00-19:00; Sa 09:00-13:00` → `w01f08001900;w02009001300`.
public struct OpeningHours: Sendable, Hashable {
    /// How a rule combines with the rules before it.
    public enum Combinator: String, Sendable, Hashable { case normal, additional, fallback }

    public struct YearRange: Sendable, Hashable {
        public var from: Int, to: Int
        public init(from: Int, to: Int) { self.from = from; self.to = to }
    }

    /// Month-day range, inclusive; wraps over the new year when from > to. A whole month uses days 1 and 31.
    public struct DateRange: Sendable, Hashable {
        public var fromMonth: Int, fromDay: Int, toMonth: Int, toDay: Int
        public init(fromMonth: Int, fromDay: Int, toMonth: Int, toDay: Int) {
            self.fromMonth = fromMonth; self.fromDay = fromDay; self.toMonth = toMonth; self.toDay = toDay
        }
    }

    /// ISO week range, inclusive (wraps when from > to), every `step`-th week from `from`.
    public struct WeekRange: Sendable, Hashable {
        public var from: Int, to: Int, step: Int
        public init(from: Int, to: Int, step: Int) { self.from = from; self.to = to; self.step = step }
    }

    /// Minutes after the day's midnight; `end` > `start`, up to 2880 (48:00). An open end is unknown from `end` to 24:00.
    public struct Span: Sendable, Hashable {
        public var start: Int, end: Int, openEnd: Bool
        public init(start: Int, end: Int, openEnd: Bool = false) { self.start = start; self.end = end; self.openEnd = openEnd }
    }

    public struct Rule: Sendable, Hashable {
        public var combinator: Combinator = .normal
        public var years: [YearRange] = []
        public var dates: [DateRange] = []
        public var weeks: [WeekRange] = []
        /// Bits: 0…6 Monday…Sunday, 7 PH, 8 SH, 9 holidays AND weekdays. 0: every day.
        public var dayMask: Int = 0
        /// Empty: the whole day.
        public var spans: [Span] = []
        public var state: OpenState = .open
        public var comment: String?
        public init() {}
    }

    public static let publicHoliday = 1 << 7, schoolHoliday = 1 << 8, holidaysAndWeekdays = 1 << 9

    public var rules: [Rule]
    public init(rules: [Rule]) { self.rules = rules }

    /// A parse problem: a one-line message and the character offset in the value where it starts.
    public struct ParseError: Error, Sendable, Equatable {
        public let message: String
        public let offset: Int
        public init(message: String, offset: Int) { self.message = message; self.offset = offset }
    }

    /// Wall-clock time in the place's time zone.
    public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
        public var year: Int, month: Int, day: Int
        /// 0..<1440
        public var minute: Int
        public init(year: Int, month: Int, day: Int, minute: Int) {
            self.year = year; self.month = month; self.day = day; self.minute = minute
        }
        /// `YYYY-MM-DDTHH:MM`
        public var description: String {
            OpeningHours.pad(year, 4) + "-" + OpeningHours.pad(month, 2) + "-" + OpeningHours.pad(day, 2) + "T"
                + OpeningHours.pad(minute / 60, 2) + ":" + OpeningHours.pad(minute % 60, 2)
        }
    }

    public enum OpenState: String, Sendable, Hashable { case open, closed, unknown }

    // MARK: Compact encoding

    /// The compact, canonical ASCII form (grammar in the type's documentation).
    public var compact: String {
        var out = ""
        for (index, rule) in rules.enumerated() {
            if index > 0 {
                switch rule.combinator {
                case .normal: out += ";"
                case .additional: out += ","
                case .fallback: out += "|"
                }
            }
            var body = ""
            for y in rule.years { body += "y" + Self.pad(y.from, 4) + Self.pad(y.to, 4) }
            for d in rule.dates { body += "d" + Self.pad(d.fromMonth, 2) + Self.pad(d.fromDay, 2) + Self.pad(d.toMonth, 2) + Self.pad(d.toDay, 2) }
            for w in rule.weeks { body += "k" + Self.pad(w.from, 2) + Self.pad(w.to, 2) + Self.pad(w.step, 2) }
            if rule.dayMask != 0 {
                let hex = String(rule.dayMask, radix: 16)
                body += "w" + String(repeating: "0", count: max(0, 3 - hex.count)) + hex
            }
            for s in rule.spans { body += (s.openEnd ? "+" : "") + Self.hhmm(s.start) + Self.hhmm(s.end) }
            switch rule.state {
            case .open: break
            case .closed: body += "x"
            case .unknown: body += "u"
            }
            if let comment = rule.comment { body += "\"" + Self.escape(comment) + "\"" }
            out += body.isEmpty ? "a" : body
        }
        return out
    }

    /// Reads ``compact`` back; nil when `compact` is not in that grammar.
    public init?(compact: String) {
        let c = Array(compact.utf8)
        var i = 0
        var rules: [Rule] = []
        var rule = Rule()
        var tokens = 0

        func number(_ width: Int) -> Int? {
            guard i + width <= c.count else { return nil }
            var n = 0
            for k in i..<(i + width) {
                guard c[k] >= 48, c[k] <= 57 else { return nil }
                n = n * 10 + Int(c[k] - 48)
            }
            i += width
            return n
        }
        func time() -> Int? {
            guard let h = number(2), let m = number(2), m < 60 else { return nil }
            return h * 60 + m
        }

        while true {
            if i == c.count || c[i] == 59 || c[i] == 44 || c[i] == 124 { // end ; , |
                guard tokens > 0 else { return nil }
                rules.append(rule)
                if i == c.count { break }
                rule = Rule()
                rule.combinator = c[i] == 59 ? .normal : c[i] == 44 ? .additional : .fallback
                tokens = 0
                i += 1
                continue
            }
            let letter = c[i]
            tokens += 1
            switch letter {
            case UInt8(ascii: "a"):
                i += 1
            case UInt8(ascii: "y"):
                i += 1
                guard let from = number(4), let to = number(4) else { return nil }
                rule.years.append(YearRange(from: from, to: to))
            case UInt8(ascii: "d"):
                i += 1
                guard let a = number(2), let b = number(2), let x = number(2), let y = number(2),
                      (1...12).contains(a), (1...31).contains(b), (1...12).contains(x), (1...31).contains(y) else { return nil }
                rule.dates.append(DateRange(fromMonth: a, fromDay: b, toMonth: x, toDay: y))
            case UInt8(ascii: "k"):
                i += 1
                guard let from = number(2), let to = number(2), let step = number(2),
                      (1...53).contains(from), (1...53).contains(to), step >= 1 else { return nil }
                rule.weeks.append(WeekRange(from: from, to: to, step: step))
            case UInt8(ascii: "w"):
                guard i + 4 <= c.count, c[(i + 1)..<(i + 4)].allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }),
                      let mask = Int(String(decoding: c[(i + 1)..<(i + 4)], as: UTF8.self), radix: 16),
                      mask > 0, mask < 1024 else { return nil }
                rule.dayMask = mask
                i += 4
            case UInt8(ascii: "x"), UInt8(ascii: "u"):
                rule.state = letter == UInt8(ascii: "x") ? .closed : .unknown
                i += 1
            case UInt8(ascii: "\""):
                guard let close = c[(i + 1)...].firstIndex(of: 34),
                      let text = Self.unescape(c[(i + 1)..<close]) else { return nil }
                rule.comment = text
                i = close + 1
            default:
                let openEnd = letter == UInt8(ascii: "+")
                if openEnd { i += 1 }
                guard let start = time(), let end = time(), start < 1440, end <= 2880,
                      openEnd ? end >= start : end > start else { return nil }
                rule.spans.append(Span(start: start, end: end, openEnd: openEnd))
            }
        }
        self.rules = rules
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte >= 0x20, byte <= 0x7E, byte != 0x25, byte != 0x22 {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    static func unescape(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var k = bytes.startIndex
        while k < bytes.endIndex {
            if bytes[k] == 0x25 {
                guard k + 2 < bytes.endIndex,
                      bytes[(k + 1)...(k + 2)].allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) }),
                      let value = UInt8(String(decoding: bytes[(k + 1)...(k + 2)], as: UTF8.self), radix: 16) else { return nil }
                out.append(value)
                k += 3
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return String(bytes: out, encoding: .utf8)
    }
}

public typealias LocalTime = OpeningHours.LocalTime
public typealias OpenState = OpeningHours.OpenState

extension OpeningHours {
    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func hhmm(_ minutes: Int) -> String { pad(minutes / 60, 2) + pad(minutes % 60, 2) }
}
