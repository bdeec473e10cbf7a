/// Parsing OSM `opening_hours` text into ``OpeningHours`` (the common subset; see the type's documentation).
extension OpeningHours {
    /// Parses and normalises `value`; the error says in plain words what is wrong and where (character offset).
    public static func parse(_ value: String) -> Result<OpeningHours, ParseError> {
        var parser = OpeningHoursParser(text: Array(value))
        do {
            return .success(try parser.parseValue())
        } catch let error as ParseError {
            return .failure(error)
        } catch {
            return .failure(ParseError(message: "\(error)", offset: 0))
        }
    }
}

struct OpeningHoursParser {
    typealias Rule = OpeningHours.Rule
    typealias ParseError = OpeningHours.ParseError

    let text: [Character]
    var i = 0

    static let weekdays = ["mo", "tu", "we", "th", "fr", "sa", "su"]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let monthLengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    static let longWeekdays = [
        "mon": "Mo", "tue": "Tu", "tues": "Tu", "wed": "We", "thu": "Th", "thur": "Th", "thurs": "Th", "fri": "Fr",
        "sat": "Sa", "sun": "Su", "monday": "Mo", "tuesday": "Tu", "wednesday": "We", "thursday": "Th",
        "friday": "Fr", "saturday": "Sa", "sunday": "Su",
    ]

    init(text: [Character]) { self.text = text }

    // MARK: Characters

    func char(_ k: Int) -> Character? { k < text.count ? text[k] : nil }
    func isDash(_ k: Int) -> Bool { char(k) == "-" || char(k) == "\u{2013}" }
    func isDigit(_ k: Int) -> Bool { char(k).map { $0.isASCII && $0.isNumber } ?? false }
    func isLetter(_ k: Int) -> Bool { char(k).map { $0.isLetter } ?? false }
    func spaces(from k: Int) -> Int {
        var k = k
        while let c = char(k), c.isWhitespace { k += 1 }
        return k
    }
    mutating func skipSpaces() { i = spaces(from: i) }

    /// The run of letters at `k` (may be empty).
    func word(at k: Int) -> String {
        var end = k
        while isLetter(end) { end += 1 }
        return String(text[k..<end])
    }
    func digitCount(at k: Int) -> Int {
        var end = k
        while isDigit(end) { end += 1 }
        return end - k
    }
    func number(at k: Int, count: Int) -> Int { Int(String(text[k..<(k + count)]))! }

    /// `H:MM` or `HH:MM` starts at `k` (digits, a colon and a digit: `Oct 30: 09:00` is a day then a time).
    func timeStarts(at k: Int) -> Bool {
        let n = digitCount(at: k)
        return (n == 1 || n == 2) && char(k + n) == ":" && isDigit(k + n + 1)
    }
    func weekdayIndex(_ word: String) -> Int? { Self.weekdays.firstIndex(of: word.lowercased()) }
    func monthIndex(_ word: String) -> Int? { Self.months.firstIndex(of: word.lowercased()).map { $0 + 1 } }
    func isHoliday(_ word: String) -> Bool { ["ph", "sh"].contains(word.lowercased()) }

    func error(_ message: String, _ offset: Int) -> ParseError { ParseError(message: message, offset: offset) }

    /// The text of the token at `k`, for messages.
    func token(at k: Int) -> String {
        if isLetter(k) { return word(at: k) }
        if isDigit(k) {
            var end = k
            while isDigit(end) || char(end) == ":" { end += 1 }
            return String(text[k..<end])
        }
        return char(k).map(String.init) ?? "end of value"
    }

    // MARK: Rules

    mutating func parseValue() throws -> OpeningHours {
        skipSpaces()
        if i == text.count { throw error("empty value", 0) }
        var rules: [Rule] = []
        var combinator = OpeningHours.Combinator.normal
        while true {
            skipSpaces()
            var rule = try parseRule()
            rule.combinator = combinator
            rules.append(rule)
            skipSpaces()
            guard let c = char(i) else { break }
            if c == ";" {
                i += 1
                skipSpaces()
                if i == text.count { break } // a trailing ';'
                combinator = .normal
            } else if c == "|" && char(i + 1) == "|" {
                i += 2
                combinator = .fallback
                if spaces(from: i) == text.count { throw error("nothing after '||'", i - 2) }
            } else if c == "," {
                i += 1
                combinator = .additional
                if spaces(from: i) == text.count { throw error("nothing after ','", i - 1) }
            } else if timeStarts(at: i) {
                throw error("missing ',' before time range '\(token(at: i))'", i)
            } else {
                throw unexpected(at: i)
            }
        }
        return OpeningHours(rules: rules)
    }

    mutating func parseRule() throws -> Rule {
        let start = i
        var rule = Rule()
        var explicitState = false
        if text.count >= i + 4 && String(text[i..<(i + 4)]) == "24/7" {
            i += 4
        } else {
            try parseWideSelectors(&rule)
            try parseWeekdays(&rule)
            try parseTimes(&rule)
        }
        skipSpaces()
        let modifier = word(at: i).lowercased()
        if ["open", "closed", "off", "unknown"].contains(modifier) {
            rule.state = modifier == "open" ? .open : modifier == "unknown" ? .unknown : .closed
            explicitState = true
            i += modifier.count
            skipSpaces()
        }
        if char(i) == "\"" {
            var end = i + 1
            while let c = char(end), c != "\"" { end += 1 }
            if end == text.count { throw error("comment is not closed with '\"'", i) }
            rule.comment = String(text[(i + 1)..<end])
            if !explicitState { rule.state = .unknown }
            i = end + 1
        }
        if i == start {
            if let c = char(i), c != ";", c != ",", c != "|" { throw unexpected(at: i) }
            throw error("empty rule", i)
        }
        if rule.dayMask & 0x7F == 0x7F && rule.dayMask & OpeningHours.holidaysAndWeekdays == 0 { rule.dayMask = 0 }
        if rule.spans == [OpeningHours.Span(start: 0, end: 1440)] { rule.spans = [] }
        return rule
    }

    func unexpected(at k: Int) -> ParseError {
        let w = word(at: k)
        let lower = w.lowercased()
        if ["sunrise", "sunset", "dawn", "dusk"].contains(lower) {
            return error("'\(w)' times are not supported", k)
        }
        if lower == "easter" { return error("easter dates are not supported", k) }
        if let short = Self.longWeekdays[lower] { return error("weekday '\(w)' should be written '\(short)'", k) }
        if w.count == 2 { return error("unknown weekday '\(w)'", k) }
        if w.count == 3 { return error("unknown month '\(w)'", k) }
        if char(k) == "(" { return error("variable times like '(sunset-01:00)' are not supported", k) }
        if isDigit(k) && !timeStarts(at: k) {
            let n = digitCount(at: k)
            if n <= 2 && isDash(spaces(from: k + n)) || n <= 2 && spaces(from: k + n) == text.count {
                return error("time '\(token(at: k))' needs minutes, like \(n == 1 ? "0" : "")\(token(at: k)):00", k)
            }
        }
        return error("unexpected '\(token(at: k))'", k)
    }

    // MARK: Years, weeks, months and dates

    mutating func parseWideSelectors(_ rule: inout Rule) throws {
        var any = false
        while true {
            skipSpaces()
            let n = digitCount(at: i)
            if n == 4 && char(i + 4) != ":" {
                try parseYears(&rule)
            } else if (n == 1 || n == 2) && monthIndex(word(at: spaces(from: i + n))) != nil && spaces(from: i + n) > i + n {
                throw error("write the month before the day, like 'Jun 15'", i)
            } else if word(at: i).lowercased() == "week" {
                try parseWeeks(&rule)
            } else if monthIndex(word(at: i)) != nil {
                try parseDates(&rule)
            } else {
                break
            }
            any = true
        }
        if any && char(i) == ":" { i += 1 }
    }

    mutating func parseYears(_ rule: inout Rule) throws {
        while true {
            let from = number(at: i, count: 4)
            var to = from
            i += 4
            let dash = spaces(from: i)
            if isDash(dash) && digitCount(at: spaces(from: dash + 1)) == 4 {
                let k = spaces(from: dash + 1)
                to = number(at: k, count: 4)
                if to < from { throw error("years \(from)-\(to) run backwards", k) }
                i = k + 4
            }
            rule.years.append(OpeningHours.YearRange(from: from, to: to))
            let next = spaces(from: i)
            guard char(next) == ",", digitCount(at: spaces(from: next + 1)) == 4,
                  char(spaces(from: next + 1) + 4) != ":" else { return }
            i = spaces(from: next + 1)
        }
    }

    mutating func parseWeeks(_ rule: inout Rule) throws {
        i += 4
        skipSpaces()
        while true {
            let from = try weekNumber()
            var to = from, step = 1
            if isDash(i) {
                i += 1
                to = try weekNumber()
            }
            if char(i) == "/" {
                i += 1
                let n = digitCount(at: i)
                guard n > 0, n <= 2, number(at: i, count: n) >= 1 else { throw error("expected a week step after '/'", i) }
                step = number(at: i, count: n)
                i += n
            }
            rule.weeks.append(OpeningHours.WeekRange(from: from, to: to, step: step))
            guard char(i) == ",", digitCount(at: i + 1) > 0 else { return }
            i += 1
        }
    }

    mutating func weekNumber() throws -> Int {
        let n = digitCount(at: i)
        guard n == 1 || n == 2 else { throw error("expected a week number 01-53", i) }
        let week = number(at: i, count: n)
        guard (1...53).contains(week) else { throw error("week \(week) is not between 01 and 53", i) }
        i += n
        return week
    }

    /// `Jan`, `Jan-Mar`, `Dec 24`, `Dec 24-26`, `Jun 15-Sep 15`, lists of those.
    mutating func parseDates(_ rule: inout Rule) throws {
        while true {
            let fromMonth = monthIndex(word(at: i))!
            i += 3
            var fromDay: Int? = try dayNumber(month: fromMonth)
            var toMonth = fromMonth, toDay: Int? = nil
            let dash = spaces(from: i)
            if isDash(dash) {
                let k = spaces(from: dash + 1)
                if let m = monthIndex(word(at: k)) {
                    i = k + 3
                    toMonth = m
                    toDay = try dayNumber(month: m)
                } else if fromDay != nil, digitCount(at: k) > 0, !timeStarts(at: k) {
                    i = k
                    toDay = try dayNumber(month: fromMonth)
                } else if isLetter(k) {
                    throw error("unknown month '\(word(at: k))'", k)
                } else {
                    throw error("expected a month or a day after '-'", k)
                }
            } else if fromDay != nil {
                toDay = fromDay
            }
            if fromDay == nil { fromDay = 1 }
            rule.dates.append(OpeningHours.DateRange(fromMonth: fromMonth, fromDay: fromDay!, toMonth: toMonth, toDay: toDay ?? 31))
            let next = spaces(from: i)
            guard char(next) == ",", monthIndex(word(at: spaces(from: next + 1))) != nil else { return }
            i = spaces(from: next + 1)
        }
    }

    /// A day number after a month (`Dec 24`), if there is one (and it is not a time).
    mutating func dayNumber(month: Int) throws -> Int? {
        let k = spaces(from: i)
        let n = digitCount(at: k)
        guard n > 0, !timeStarts(at: k) else { return nil }
        guard n <= 2 else { throw error("expected a day number after the month", k) }
        let day = number(at: k, count: n)
        guard day >= 1, day <= Self.monthLengths[month - 1] else {
            throw error("day \(day) is not in \(Self.months[month - 1].capitalized)", k)
        }
        i = k + n
        return day
    }

    // MARK: Weekdays and holidays

    mutating func parseWeekdays(_ rule: inout Rule) throws {
        skipSpaces()
        var mask = 0, sawHolidays = false, sawWeekdays = false, spaceJoin = false
        guard weekdayIndex(word(at: i)) != nil || isHoliday(word(at: i)) else { return }
        while true {
            let w = word(at: i)
            if let from = weekdayIndex(w) {
                if sawHolidays && !sawWeekdays && spaceJoin { mask |= OpeningHours.holidaysAndWeekdays }
                sawWeekdays = true
                i += 2
                var to = from
                let dash = spaces(from: i)
                if isDash(dash) && isLetter(spaces(from: dash + 1)) {
                    let k = spaces(from: dash + 1)
                    guard let end = weekdayIndex(word(at: k)) else { throw error("unknown weekday '\(word(at: k))'", k) }
                    to = end
                    i = k + 2
                }
                var d = from
                while true {
                    mask |= 1 << d
                    if d == to { break }
                    d = (d + 1) % 7
                }
                if char(i) == "[" { throw error("weekday occurrences like 'Mo[1]' are not supported", i) }
            } else if isHoliday(w) {
                mask |= w.lowercased() == "ph" ? OpeningHours.publicHoliday : OpeningHours.schoolHoliday
                sawHolidays = true
                i += 2
                let k = spaces(from: i)
                if (char(k) == "+" || isDash(k)) && (isDigit(spaces(from: k + 1))) {
                    throw error("holiday offsets like 'PH +1 day' are not supported", k)
                }
            } else {
                throw error(w.count == 2 ? "unknown weekday '\(w)'" : "expected a weekday after ','", i)
            }
            let next = spaces(from: i)
            if char(next) == ",", weekdayIndex(word(at: spaces(from: next + 1))) != nil || isHoliday(word(at: spaces(from: next + 1))) {
                i = spaces(from: next + 1)
                spaceJoin = false
            } else if next > i, sawHolidays, !sawWeekdays, weekdayIndex(word(at: next)) != nil {
                i = next // `PH Mo-Fr`: holidays that are also these weekdays
                spaceJoin = true
            } else {
                break
            }
        }
        rule.dayMask = mask
    }

    // MARK: Times

    mutating func parseTimes(_ rule: inout Rule) throws {
        skipSpaces()
        if isDigit(i) && !timeStarts(at: i) { throw unexpected(at: i) }
        guard timeStarts(at: i) else { return }
        while true {
            rule.spans.append(try parseSpan())
            let next = spaces(from: i)
            guard char(next) == ",", timeStarts(at: spaces(from: next + 1)) else { return }
            i = spaces(from: next + 1)
        }
    }

    mutating func parseSpan() throws -> OpeningHours.Span {
        let startOffset = i
        let start = try parseTime(limit: 1440)
        if start == 1440 { throw error("a time range can't start at 24:00", startOffset) }
        let afterStart = spaces(from: i)
        if char(afterStart) == "+" {
            i = afterStart + 1
            return OpeningHours.Span(start: start, end: start, openEnd: true)
        }
        guard isDash(afterStart) else {
            let shown = String(text[startOffset..<i])
            throw error("time \(shown) has no end (write \(shown)-HH:MM, or \(shown)+ for an open end)", startOffset)
        }
        let endOffset = spaces(from: afterStart + 1)
        i = endOffset
        if isLetter(i) || char(i) == "(" { throw unexpected(at: i) }
        guard timeStarts(at: i) else {
            throw error("time range \(String(text[startOffset..<afterStart]))- has no end", endOffset)
        }
        var end = try parseTime(limit: 2880)
        if end <= start { end += 1440 }
        if end > 2880 { throw error("time range ends more than 48 hours after midnight", endOffset) }
        var openEnd = false
        if char(i) == "+" {
            i += 1
            openEnd = true
        }
        return OpeningHours.Span(start: start, end: end, openEnd: openEnd)
    }

    /// `H:MM` or `HH:MM` at `i`, in minutes; at most `limit`.
    mutating func parseTime(limit: Int) throws -> Int {
        let start = i
        let n = digitCount(at: i)
        let hours = number(at: i, count: n)
        i += n + 1
        guard digitCount(at: i) == 2 else { throw error("time '\(token(at: start))' needs two-digit minutes, like 08:00", start) }
        let minutes = number(at: i, count: 2)
        i += 2
        let shown = String(text[start..<i])
        if minutes > 59 { throw error("minutes in \(shown) are past 59", start) }
        if hours * 60 + minutes > limit {
            throw error("time \(shown) is past \(limit == 1440 ? "24:00" : "48:00")", start)
        }
        return hours * 60 + minutes
    }
}
