import CityPackSupport
import Testing

/// ``OpeningHours``: parsing OSM `opening_hours`, the compact form the pack stores, and the state at a local time.
/// clients/web/test/opening-hours.test.mjs checks the same cases against the JS evaluator (keep the tables in step).
@Suite struct OpeningHoursTests {
    static let states: [(String, String, OpeningHours.OpenState, String?)] = [
        // every construct: 24/7, weekday ranges and lists, wrapping ranges, time lists
        ("24/7", "2024-06-03T10:00", .open, nil),
        ("Mo-Fr 08:00-19:00; Sa 09:00-13:00", "2024-06-08T10:00", .open, "2024-06-08T13:00"),
        ("Mo-Fr 08:00-19:00; Sa 09:00-13:00", "2024-06-08T13:00", .closed, "2024-06-10T08:00"), // across the week end
        ("Mo,We,Fr 10:00-12:00", "2024-06-04T11:00", .closed, "2024-06-05T10:00"),
        ("Sa-Mo 10:00-12:00", "2024-06-09T11:00", .open, "2024-06-09T12:00"),
        ("Sa-Mo 10:00-12:00", "2024-06-04T11:00", .closed, "2024-06-08T10:00"),
        ("Mo-Fr 08:00-12:00,13:00-18:00", "2024-06-03T12:30", .closed, "2024-06-03T13:00"),
        // past midnight: 22:00-02:00, 18:00-24:00, -26:00
        ("Fr 22:00-02:00", "2024-06-08T01:00", .open, "2024-06-08T02:00"),
        ("Fr 22:00-02:00", "2024-06-07T21:00", .closed, "2024-06-07T22:00"),
        ("Fr 22:00-02:00", "2024-06-07T23:59", .open, "2024-06-08T02:00"), // across midnight
        ("Mo-Su 18:00-24:00", "2024-06-03T23:00", .open, "2024-06-04T00:00"),
        ("Su 20:00-26:00", "2024-06-09T23:00", .open, "2024-06-10T02:00"), // across midnight and the week end
        // off / closed / open, overriding and additional rules, fallback
        ("Mo-Fr 09:00-18:00; We off", "2024-06-05T10:00", .closed, "2024-06-06T09:00"),
        ("Mo-Fr 09:00-18:00; We closed", "2024-06-05T10:00", .closed, "2024-06-06T09:00"),
        ("open", "2024-06-05T10:00", .open, nil),
        ("off", "2024-06-05T10:00", .closed, nil),
        ("Mo-Fr 08:00-18:00; We 12:00-14:00 off", "2024-06-05T13:00", .closed, "2024-06-05T14:00"),
        ("Mo-Sa 10:00-20:00; Sa 10:00-14:00", "2024-06-08T15:00", .closed, "2024-06-10T10:00"),
        ("Mo-Fr 08:00-12:00, We 14:00-16:00", "2024-06-05T15:00", .open, "2024-06-05T16:00"),
        ("Mo-Fr 10:00-20:00 || \"by appointment\"", "2024-06-08T11:00", .unknown, "2024-06-10T00:00"),
        ("Mo-Fr 10:00-20:00 || \"by appointment\"", "2024-06-03T21:00", .closed, "2024-06-04T10:00"),
        // months, dates, weeks, years
        ("Jan-Mar 10:00-16:00; Apr-Dec 09:00-18:00", "2024-03-31T17:00", .closed, "2024-04-01T09:00"),
        ("Mo-Su 09:00-18:00; Dec 24-26 off", "2024-12-23T17:00", .open, "2024-12-23T18:00"),
        ("Mo-Su 09:00-18:00; Dec 24-26 off", "2024-12-23T18:00", .closed, "2024-12-27T09:00"),
        ("Dec 10:00-12:00", "2024-11-30T09:00", .closed, "2024-12-01T10:00"),
        ("week 01-26 10:00-12:00", "2024-06-30T13:00", .closed, "2024-12-30T10:00"),
        ("2024 10:00-12:00", "2024-12-31T13:00", .closed, nil),
        // holidays: unknown only when the answer depends on them
        ("Mo-Fr 09:00-18:00; PH off", "2024-06-03T10:00", .unknown, "2024-06-03T18:00"),
        ("Mo-Fr 09:00-18:00; PH off", "2024-06-03T20:00", .closed, "2024-06-04T09:00"),
        ("Mo-Fr 09:00-18:00; PH off", "2024-06-09T12:00", .closed, "2024-06-10T09:00"),
        // comments, open end, case and whitespace tolerance
        ("Sa,Su \"by appointment\"", "2024-06-08T10:00", .unknown, "2024-06-10T00:00"),
        ("Fr-Sa 18:00+", "2024-06-07T19:00", .unknown, "2024-06-08T00:00"),
        ("mo-fr 8:00-19:00", "2024-06-03T07:59", .closed, "2024-06-03T08:00"),
        ("Mo-Fr 08:00-12:00;", "2024-06-03T11:00", .open, "2024-06-03T12:00"),
    ]

    static func time(_ text: String) -> OpeningHours.LocalTime {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        return OpeningHours.LocalTime(year: parts[0], month: parts[1], day: parts[2], minute: parts[3] * 60 + parts[4])
    }

    static func parsed(_ value: String) throws -> OpeningHours {
        switch OpeningHours.parse(value) {
        case .success(let hours): return hours
        case .failure(let error): throw error
        }
    }

    @Test(arguments: 0..<states.count)
    func stateAndNextChange(_ index: Int) throws {
        let (value, at, state, next) = Self.states[index]
        let hours = try Self.parsed(value)
        let answer = hours.state(at: Self.time(at))
        #expect(answer.state == state, "\(value) at \(at)")
        #expect(answer.nextChange?.description == next, "\(value) at \(at)")
        // the compact form gives the same answer
        let decoded = try #require(OpeningHours(compact: hours.compact))
        #expect(decoded.state(at: Self.time(at)) == answer)
    }

    @Test(arguments: [
        ("Mo-Fr 25:00-26:00", "time 25:00 is past 24:00", 6),
        ("Mn-Fr 08:00-12:00", "unknown weekday 'Mn'", 0),
        ("Mo-Fr 08:00-", "time range 08:00- has no end", 12),
        ("Jan-Dez", "unknown month 'Dez'", 4),
        ("sunrise-sunset", "'sunrise' times are not supported", 0),
        ("Mo-Fr 08:75-09:00", "minutes in 08:75 are past 59", 6),
        ("Mo-Fr 08:00-12:00 13:00-17:00", "missing ',' before time range '13:00'", 18),
        ("21:00 closed", "time 21:00 has no end (write 21:00-HH:MM, or 21:00+ for an open end)", 0),
        ("Mo-Fr \"by appointment", "comment is not closed with '\"'", 6),
        ("", "empty value", 0),
        ("Mo-Fr 08:00-12:00 ||", "nothing after '||'", 18),
        ("Mon-Fri 08:00-17:00", "weekday 'Mon' should be written 'Mo'", 0),
        ("15 Jun-15 Sep", "write the month before the day, like 'Jun 15'", 0),
        ("Mo[1] 10:00-12:00", "weekday occurrences like 'Mo[1]' are not supported", 2),
    ])
    func parseErrorsSayWhatAndWhere(_ value: String, _ message: String, _ offset: Int) {
        #expect(OpeningHours.parse(value) == .failure(OpeningHours.ParseError(message: message, offset: offset)))
    }

    @Test(arguments: [
        "Mo-Fr 22:00-26:00", "Mo-Fr 08:00-12:00;", "Mo - Fr 7:30 - 17:00 ", "Mo-Sa 09:30\u{2013}19:30",
        "Oct 30: 09:00-18:00", "Su 18:00-24:00", "Mo-Fr 08:00-12:00, 13:30-17:00", "Sa, Su, PH off",
    ])
    func nearMissesStillParse(_ value: String) throws {
        _ = try Self.parsed(value)
    }

    @Test(arguments: [
        ("24/7", "a"),
        ("Mo-Su 00:00-24:00", "a"),
        ("Mo-Fr 08:00-19:00; Sa 09:00-13:00", "w01f08001900;w02009001300"),
        ("mo-fr 8:00-19:00;sa 9:00-13:00 ;", "w01f08001900;w02009001300"),
        ("Mo-Fr 08:00-12:00, 13:30-17:00", "w01f0800120013301700"),
        ("Mo-Sa 08:30-20:00, Su closed", "w03f08302000,w040x"),
        ("Sa,Su \"On request\"", "w060u\"On request\""),
        ("Tu-Su 09:00-17:30; Dec 25 closed", "w07e09001730;d12251225x"),
        ("Mo-Fr 10:00-20:00 || \"call\"", "w01f10002000|u\"call\""),
        ("\"\u{FC}ber %\"", "u\"%C3%BCber %25\""),
        ("week 01-26/2", "k012602"),
        ("2021 Apr 01-02 08:00-18:30", "y20212021d0401040208001830"),
        ("PH Mo-Fr 10:00-12:00", "w29f10001200"),
        ("Fr-Sa 18:00+", "w030+18001800"),
        ("Nov-Feb off", "d11010231x"),
        ("Sa 22:00-02:00", "w02022002600"),
    ])
    func compactRoundTrip(_ value: String, _ compact: String) throws {
        let hours = try Self.parsed(value)
        #expect(hours.compact == compact)
        #expect(OpeningHours(compact: compact) == hours)
    }

    @Test(arguments: ["", "w01", "zz", "0800", "w01f;", "w01f08001900;", "d13011301", "1800090", "u\"open"])
    func compactRejectsGarbage(_ text: String) {
        #expect(OpeningHours(compact: text) == nil)
    }
}
