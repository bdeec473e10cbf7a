import FlyingFox
import FlyingSocks
import Foundation

/// The HTTP side of `citypack preview`, on FlyingFox: binds 127.0.0.1 only and serves
///
/// - `/` the page, `/preview.css` its style and `/preview.js` its script (``PreviewPage``), `/citypack.js` the web reader itself
///   (`clients/web/citypack.js`, read from disk on each request: the same file the JS tests use);
/// - `/state.json` the latest build (``PreviewState``) and `/events` a server-sent event stream that says
///   `build` after each one;
/// - `/pack/…` the files of the city's output folder (manifest, web flavour, reports), never anything else:
///   targets are judged before any file is touched (``PreviewPath``) and a resolved file must lie inside the
///   folder.
///
/// Requests whose `Host` is not the loopback address and port the server listens on are refused (a page on another
/// site cannot reach the preview through DNS rebinding). Only GET is answered.
struct PreviewHandler: HTTPHandler {
    let hub: PreviewHub
    /// `clients/web/citypack.js`, when found.
    let readerPath: String?
    /// The port listened on, once known (for the Host check).
    let port: PortBox

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let host = request.headers[.host]?.lowercased() ?? ""
        let allowed = port.value.map { ["127.0.0.1:\($0)", "localhost:\($0)"] } ?? []
        guard allowed.contains(host) else { return Self.plain(.forbidden, "only http://127.0.0.1:PORT/ is served\n") }
        guard request.method == .GET else { return Self.plain(.methodNotAllowed, "GET only\n") }
        switch PreviewPath(target: request.target.path()) {
        case .forbidden:
            return Self.plain(.forbidden, "forbidden\n")
        case .notFound:
            return Self.plain(.notFound, "not found\n")
        case .page:
            return Self.body(Data(PreviewPage.html.utf8), type: "text/html; charset=utf-8")
        case .pageStyle:
            return Self.body(Data(PreviewPage.style.utf8), type: "text/css; charset=utf-8")
        case .pageScript:
            return Self.body(Data(PreviewPage.script.utf8), type: "text/javascript; charset=utf-8")
        case .reader(let name):
            let path = readerPath.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name) }
            guard let path, let data = FileManager.default.contents(atPath: path) else {
                return Self.plain(.notFound, "clients/web/citypack.js was not found beside this citypack\n")
            }
            return Self.body(data, type: "text/javascript; charset=utf-8")
        case .state:
            return Self.body(hub.current.json, type: "application/json")
        case .events:
            var headers = Self.headers("text/event-stream")
            headers[.connection] = "keep-alive"
            return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: EventStreamBody(hub: hub)))
        case .pack(let segments):
            guard let folder = hub.packFolder, let url = PreviewPath.file(segments, under: folder),
                let data = FileManager.default.contents(atPath: url.path)
            else { return Self.plain(.notFound, "not found\n") }
            return Self.body(data, type: Self.type(of: url.lastPathComponent))
        }
    }

    static func headers(_ type: String) -> HTTPHeaders {
        [.contentType: type, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff"]
    }

    static func body(_ data: Data, type: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: headers(type), body: data)
    }

    static func plain(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers("text/plain; charset=utf-8"), body: Data(text.utf8))
    }

    /// Served as stored: the web flavour's `.gz` parts are bytes the reader verifies and gunzips itself.
    static func type(of name: String) -> String {
        if name.hasSuffix(".json") { return "application/json" }
        if name.hasSuffix(".gz") || name.hasSuffix(".delta") { return "application/octet-stream" }
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".xml") { return "application/xml" }
        return "application/octet-stream"
    }
}

/// The port, set once the server listens. Thread-safe.
final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var port: UInt16?
    var value: UInt16? {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }
}

/// `/events`: the hub's events for one page, as the bytes of an endless response body (sent chunked). When the
/// page goes away, the next write fails (at the latest the hub's ping), FlyingFox closes the connection and
/// drops this body, and the iterator's `deinit` leaves the hub: nothing waits on a client that is gone.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let hub: PreviewHub

    func makeAsyncIterator() -> Iterator { Iterator(hub: hub) }

    final class Iterator: AsyncBufferedIteratorProtocol {
        typealias Buffer = [UInt8]
        private let hub: PreviewHub
        private let id: Int
        private var events: AsyncStream<[UInt8]>.Iterator
        private var pending: [UInt8] = []

        init(hub: PreviewHub) {
            self.hub = hub
            let (id, stream) = hub.subscribe()
            self.id = id
            events = stream.makeAsyncIterator()
        }

        deinit { hub.unsubscribe(id) }

        private func fill() async -> Bool {
            if !pending.isEmpty { return true }
            var iterator = events
            let next = await iterator.next()
            events = iterator
            guard let next else { return false }
            pending = next
            return true
        }

        func next() async throws -> UInt8? {
            guard await fill() else { return nil }
            return pending.removeFirst()
        }

        func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard await fill() else { return nil }
            let n = Swift.max(1, Swift.min(count, pending.count))
            let out = Array(pending.prefix(n))
            pending.removeFirst(n)
            return out
        }
    }
}

/// Starts and holds the FlyingFox server.
package enum PreviewServer {
    /// Listens on 127.0.0.1:`port` (0: a free port the system picks) and returns the port, or throws why not.
    /// The server runs on Swift concurrency's threads until the process ends; every 10 s each event stream
    /// gets a comment line.
    package static func start(port: UInt16, hub: PreviewHub, readerPath: String?) throws -> UInt16 {
        let box = PortBox()
        let handler = PreviewHandler(hub: hub, readerPath: readerPath, port: box)
        let server = HTTPServer(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled, handler: handler)
        final class Outcome: @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var port: UInt16?
            var error: (any Error)?
        }
        let outcome = Outcome()
        Task.detached {
            do {
                try await server.run()
            } catch {
                outcome.error = error
                outcome.done.signal()
            }
        }
        Task.detached {
            do {
                try await server.waitUntilListening(timeout: 30)
                if case .ip4(_, port: let p) = await server.listeningAddress { outcome.port = p }
            } catch {
                outcome.error = error
            }
            outcome.done.signal()
            while true {
                try? await Task.sleep(for: .seconds(10))
                hub.ping()
            }
        }
        outcome.done.wait()
        guard let listening = outcome.port else { throw outcome.error ?? SocketError.unsupportedAddress }
        box.value = listening
        return listening
    }
}
