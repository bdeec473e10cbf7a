import Foundation

/// Writing to stdout/stderr, and whether stderr is an interactive terminal.
///
/// A command run in-process (``CityPackCommand/runInProcess(_:)``) writes to a ``Capture`` bound to the running
/// task instead, and is never a terminal, so concurrent in-process runs keep their outputs apart.
enum Terminal {
    /// Output captured for one in-process run: what would have gone to stdout and stderr. Thread-safe.
    final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var outData = Data()
        private var errData = Data()

        func write(_ text: String, toStandardError: Bool) {
            lock.withLock {
                if toStandardError { errData.append(Data(text.utf8)) } else { outData.append(Data(text.utf8)) }
            }
        }

        var standardOutput: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }
        var standardError: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
    }

    /// The capture of the in-process run this task belongs to; nil in the executable.
    @TaskLocal static var capture: Capture?

    private static let processStderrIsTTY: Bool = isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private static let processColour: Bool = useColour(isTTY: isatty(2) == 1, environment: ProcessInfo.processInfo.environment)

    /// stderr is a terminal a person watches: a TTY, not CI, not `TERM=dumb`. Progress is drawn only then.
    static var stderrIsTTY: Bool { capture == nil && processStderrIsTTY }

    /// Colours on stderr: a terminal, and `NO_COLOR` unset or empty (https://no-color.org).
    static var colour: Bool { capture == nil && processColour }

    static func useColour(isTTY: Bool, environment: [String: String]) -> Bool {
        guard isTTY, environment["TERM"] != "dumb" else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return true
    }

    static func err(_ text: String) {
        if let capture { return capture.write(text, toStandardError: true) }
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func out(_ text: String) {
        if let capture { return capture.write(text, toStandardError: false) }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A one-line progress bar on stderr, redrawn at most 10 times a second; silent when stderr is not a
/// terminal (CI, pipes, files) or with `--quiet`.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var last = ContinuousClock.now - .seconds(1)
    private var shown = false
    private var item = ""
    private var started = ContinuousClock.now

    init(enabled: Bool) { self.enabled = enabled && Terminal.stderrIsTTY }

    /// Reports `done` of `total` units (bytes when `unit` is "B", else rows); total 0 when unknown.
    func update(stage: String, item: String, done: Int64, total: Int64, unit: String = "B") {
        guard enabled else { return }
        lock.withLock {
            let now = ContinuousClock.now
            var newItem = false
            if item != self.item {
                self.item = item
                started = now
                newItem = true
            }
            guard newItem || now - last > .milliseconds(100) || (total > 0 && done >= total) else { return }
            last = now
            let elapsed = now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let text = Self.format(stage: stage, item: item, done: done, total: total, seconds: seconds, unit: unit, width: 24)
            Terminal.err("\r\u{1B}[K" + text)
            shown = true
        }
    }

    func clear() {
        guard enabled else { return }
        lock.withLock {
            if shown { Terminal.err("\r\u{1B}[K") }
            shown = false
        }
    }

    /// The progress text: `ingest map.osm [#########.........]  45%  12.3/27.0 MB  8.1 MB/s  ETA 2s`.
    /// Without a total it shows the amount and rate only. Pure, for tests.
    static func format(
        stage: String, item: String, done: Int64, total: Int64, seconds: Double, unit: String, width: Int
    ) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        func amount(_ n: Double) -> String {
            if unit == "B" { return String(format: "%.1f", n / 1_048_576) }
            return n >= 10_000 ? String(format: "%.0fk", n / 1000) : String(format: "%.0f", n)
        }
        let unitLabel = unit == "B" ? "MB" : unit
        var text = "\(stage) \(item)"
        if done == 0 && total == 0 { return text + " …" }
        if total > 0 {
            let fraction = min(max(Double(done) / Double(total), 0), 1)
            let filled = Int((fraction * Double(width)).rounded(.down))
            text += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            text += String(format: " %3.0f%%", fraction * 100)
            text += "  \(amount(Double(done)))/\(amount(Double(total))) \(unitLabel)"
        } else {
            text += "  \(amount(Double(done))) \(unitLabel)"
        }
        if rate > 0 {
            text += "  \(amount(rate)) \(unitLabel)/s"
            if total > 0 && done < total {
                text += "  ETA " + duration(Double(total - done) / rate)
            }
        }
        return text
    }

    /// `42s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return String(format: "%dh%02dm", s / 3600, (s % 3600) / 60)
    }
}
