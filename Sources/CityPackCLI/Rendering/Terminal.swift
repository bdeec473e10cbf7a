import Foundation

/// Writing to stdout/stderr, and whether stderr is an interactive terminal.
enum Terminal {
    static let stderrIsTTY: Bool = isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A one-line progress display on stderr, redrawn at most 10 times a second; silent when not a TTY.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var last = ContinuousClock.now - .seconds(1)
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled && Terminal.stderrIsTTY }

    func update(stage: String, item: String, done: Int64, total: Int64) {
        guard enabled else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard now - last > .milliseconds(100) || (total > 0 && done >= total) else { return }
            last = now
            let mb = Double(done) / 1_048_576
            var text = "\(stage) \(item): \(String(format: "%.1f", mb)) MB"
            if total > 0 { text += String(format: " (%3.0f%%)", 100 * Double(done) / Double(total)) }
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
}
