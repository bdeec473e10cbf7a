import Foundation

/// The preview's shared state between the build loop (one thread) and the HTTP server's tasks: the latest
/// `/state.json` and the open `/events` streams. Thread-safe.
package final class PreviewHub: @unchecked Sendable {
    private let lock = NSLock()
    private var state = Data("{\"build\":0}".utf8)
    private var build = 0
    private var subscribers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    private var nextID = 0
    private var folder: String?

    package init() {}

    /// The city's output folder (`<output>/<city>`), what `/pack/` serves; nil before the first build.
    package var packFolder: String? {
        get { lock.withLock { folder } }
        set { lock.withLock { folder = newValue } }
    }

    /// The latest state and its build number.
    package var current: (build: Int, json: Data) { lock.withLock { (build, state) } }

    /// Open event streams (for tests and the log).
    package var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Stores a build's state and tells every open page (`event: build`).
    package func publish(_ json: Data, build: Int) {
        let continuations = lock.withLock {
            state = json
            self.build = build
            return Array(subscribers.values)
        }
        let event = Array("event: build\ndata: {\"build\":\(build)}\n\n".utf8)
        for c in continuations { c.yield(event) }
    }

    /// A comment line to every stream, so connections whose client went away are noticed and closed.
    package func ping() {
        let continuations = lock.withLock { Array(subscribers.values) }
        for c in continuations { c.yield(Array(": ping\n\n".utf8)) }
    }

    /// A new event stream: first a `hello` with the current build (and the reconnection delay), then one
    /// `build` event per build. Buffers at most 16 events for a slow reader.
    package func subscribe() -> (id: Int, stream: AsyncStream<[UInt8]>) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = lock.withLock {
            nextID += 1
            subscribers[nextID] = continuation
            continuation.yield(Array("retry: 500\nevent: hello\ndata: {\"build\":\(build)}\n\n".utf8))
            return nextID
        }
        return (id, stream)
    }

    package func unsubscribe(_ id: Int) {
        let continuation = lock.withLock { subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }
}
