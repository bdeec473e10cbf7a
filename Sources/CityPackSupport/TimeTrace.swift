import Foundation

/// Wall-clock spans of a build's phases, for finding where the time goes (like clang's `-ftime-trace`).
///
/// Off unless the tool names a destination (``enable(destination:)``; `citypack` does for `CITYPACK_TIME_TRACE`):
/// `-` prints a table of spans to standard error
/// when ``flush()`` runs; any other value is a file path that receives the spans as Chrome trace-event JSON (open it
/// in `chrome://tracing` or Perfetto). When off, a ``Lap`` costs one load and a branch per mark.
package enum TimeTrace {
    struct Span {
        var name: String
        var thread: UInt64
        var start: UInt64
        var end: UInt64
    }

    /// Where the trace goes; nil = tracing off.
    nonisolated(unsafe) public private(set) static var destination: String?

    /// Turns tracing on (a destination) or off (nil). Call it once, before any work starts: `citypack` does at launch.
    package static func enable(destination: String?) {
        self.destination = destination.flatMap { $0.isEmpty ? nil : $0 }
    }

    nonisolated(unsafe) private static var spans: [Span] = []
    private static let lock = NSLock()

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// A stopwatch over consecutive phases: each ``mark(_:)`` records the time since the previous mark (or since
    /// the lap began) under a name. Costs one load and a branch per mark when tracing is off.
    package struct Lap {
        var start: UInt64

        package init() { start = TimeTrace.destination == nil ? 0 : TimeTrace.now() }

        /// Records the phase that ends now under `name`, and starts the next one.
        package mutating func mark(_ name: @autoclosure () -> String) {
            guard TimeTrace.destination != nil else { return }
            TimeTrace.record(name(), start: start)
            start = TimeTrace.now()
        }
    }

    static func record(_ name: String, start: UInt64) {
        let end = now()
        #if canImport(Glibc) || canImport(Musl)
        let thread = UInt64(pthread_self())
        #else
        let thread = UInt64(UInt(bitPattern: pthread_self()))
        #endif
        lock.lock()
        spans.append(Span(name: name, thread: thread, start: start, end: end))
        lock.unlock()
    }

    /// Writes the recorded spans to ``destination`` (a table on standard error for `-`, else Chrome trace JSON).
    package static func flush() {
        guard let destination else { return }
        lock.lock()
        var recorded = spans.sorted { ($0.start, $1.end) < ($1.start, $0.end) }
        spans.removeAll()
        lock.unlock()
        // Small thread numbers in order of first appearance (0 is the thread whose span started first).
        var numbers: [UInt64: UInt64] = [:]
        for index in recorded.indices {
            let raw = recorded[index].thread
            let number = numbers[raw] ?? UInt64(numbers.count)
            numbers[raw] = number
            recorded[index].thread = number
        }
        let base = recorded.first?.start ?? 0
        if destination == "-" {
            var text = "time trace (ms from start, duration ms, thread):\n"
            for span in recorded {
                text += String(
                    format: "%8.2f %8.2f  %6llu  ", Double(span.start &- base) / 1e6, Double(span.end &- span.start) / 1e6,
                    span.thread) + span.name + "\n"
            }
            FileHandle.standardError.write(Data(text.utf8))
            return
        }
        var events: [String] = []
        for span in recorded {
            let name = span.name.escapingScalars(["\\": "\\\\", "\"": "\\\""])
            events.append(
                "{\"name\":\"\(name)\",\"ph\":\"X\",\"pid\":1,\"tid\":\(span.thread),\"ts\":\((span.start &- base) / 1000),"
                    + "\"dur\":\((span.end &- span.start) / 1000)}")
        }
        let json = "{\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
        if !FileManager.default.createFile(atPath: destination, contents: Data(json.utf8)) {
            FileHandle.standardError.write(Data("citypack: warning: cannot write the time trace to \(destination)\n".utf8))
        }
    }
}
