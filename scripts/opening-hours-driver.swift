// Standalone driver for scripts/opening-hours-agreement.py: compile with the OpeningHours sources,
//   swiftc -O -parse-as-library -package-name citypack -o /tmp/oh/driver Sources/CityPackSupport/OpeningHours*.swift \
//     Sources/CityPackSupport/CivilTime.swift scripts/opening-hours-driver.swift
// Reads JSON lines {"value": "...", "times": ["YYYY-MM-DDTHH:MM", ...]} on stdin and prints one JSON line each:
// {"value", "error": {"message", "offset"} | null, "compact": "..." | null,
//  "results": [{"time", "state", "next": "YYYY-MM-DDTHH:MM" | null}],
//  "noHolidays": the same results as if no day were a PH or SH (only when the value mentions them, else null)}
import Foundation

func quoted(_ text: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed, .withoutEscapingSlashes])
    let array = String(decoding: data, as: UTF8.self)
    return String(array.dropFirst().dropLast())
}

func localTime(_ text: String) -> LocalTime? {
    let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    guard parts.count == 5 else { return nil }
    return LocalTime(year: parts[0], month: parts[1], day: parts[2], minute: parts[3] * 60 + parts[4])
}

@main struct OpeningHoursDriver {
    static func main() {
        while let line = readLine() {
            guard !line.isEmpty else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let value = object["value"] as? String else {
                FileHandle.standardError.write(Data("bad input line: \(line)\n".utf8))
                exit(2)
            }
            let times = object["times"] as? [String] ?? []
            var out = "{\"value\":\(quoted(value)),"
            switch OpeningHours.parse(value) {
            case .failure(let error):
                out += "\"error\":{\"message\":\(quoted(error.message)),\"offset\":\(error.offset)},\"compact\":null,\"results\":[],\"noHolidays\":null}"
            case .success(let hours):
                let compact = hours.compact
                guard OpeningHours(compact: compact) == hours else {
                    FileHandle.standardError.write(Data("compact round trip failed: \(value) -> \(compact)\n".utf8))
                    exit(3)
                }
                func results(_ noHolidays: Bool) -> String {
                    var results: [String] = []
                    for time in times {
                        guard let at = localTime(time) else {
                            FileHandle.standardError.write(Data("bad time: \(time)\n".utf8))
                            exit(2)
                        }
                        let (state, next) = hours.state(at: at, holidaysKnownAbsent: noHolidays)
                        let nextText = next.map { quoted($0.description) } ?? "null"
                        results.append("{\"time\":\(quoted(time)),\"state\":\"\(state.rawValue)\",\"next\":\(nextText)}")
                    }
                    return "[" + results.joined(separator: ",") + "]"
                }
                let holidays = hours.rules.contains { $0.dayMask & (OpeningHours.publicHoliday | OpeningHours.schoolHoliday) != 0 }
                out += "\"error\":null,\"compact\":\(quoted(compact)),\"results\":\(results(false)),"
                out += "\"noHolidays\":\(holidays ? results(true) : "null")}"
            }
            print(out)
        }
    }
}
