import CityPackKit
import CityPackSupport
import CityPackStorage
import Foundation

/// A ``PackTransport`` over a folder, with HTTP semantics enough for the library (ETag, `If-None-Match` → 304,
/// `Range` + `If-Range` → 206 or 200) and scripted faults, for fast state-machine tests without a network.
final class FakeTransport: PackTransport, @unchecked Sendable {
    enum Fault: Sendable {
        /// Writes `at` body bytes, then the connection drops.
        case cut(at: Int)
        /// No bytes after `at`: a stall.
        case stall(at: Int)
        /// A clean response of the first `at` bytes.
        case truncate(at: Int)
        /// The byte at `at` inverted.
        case flip(at: Int)
        /// The body gunzip'd on the way, with `Content-Encoding: gzip` in the headers.
        case encoding
        /// An HTTP status with no body.
        case status(Int)
        /// Connection refused.
        case offline
        /// The bytes of another file, with its own ETag.
        case replace(URL)
        /// The file changed since the last request: another ETag, so `If-Range` fails and the answer is a 200.
        case newValidator
        /// Waits until the calling task is cancelled.
        case hang
    }

    struct Rule {
        var path: String
        var fault: Fault
        var times: Int
    }

    struct Logged: Sendable {
        var path: String
        var headers: [String: String]
        var status: Int?
        var bytes: Int64
    }

    let root: URL
    private let lock = NSLock()
    private var rules: [Rule] = []
    private var entries: [Logged] = []

    init(root: URL) { self.root = root }

    func add(_ path: String, _ fault: Fault, times: Int = Int.max) {
        lock.withLock { rules.append(Rule(path: path, fault: fault, times: times)) }
    }

    func clear() { lock.withLock { rules = [] } }

    var log: [Logged] { lock.withLock { entries } }

    func clearLog() { lock.withLock { entries = [] } }

    /// Whether a request is waiting in a `.hang` fault.
    var hanging: Bool { lock.withLock { hangs > 0 } }
    private var hangs = 0

    private func takeFault(for path: String) -> Fault? {
        lock.withLock {
            guard let index = rules.firstIndex(where: { path.contains($0.path) && $0.times > 0 }) else { return nil }
            rules[index].times -= 1
            return rules[index].fault
        }
    }

    static func etag(_ data: Data) -> String { "\"\(FileDigest.sha256(of: data).prefix(16))\"" }

    func fetch(_ request: TransportRequest, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
        async throws(TransportError) -> TransportResponse
    {
        let path = request.url.path
        let relative = path.hasPrefix(root.path) ? String(path.dropFirst(root.path.count)) : path
        var entry = Logged(path: relative, headers: request.headers, status: nil, bytes: 0)
        defer { lock.withLock { entries.append(entry) } }
        if Task.isCancelled { throw .cancelled }
        let fault = takeFault(for: relative)
        if case .offline = fault { throw .offline("connection refused") }
        if case .hang = fault {
            lock.withLock { hangs += 1 }
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 2_000_000) }
            throw .cancelled
        }
        if case .status(let code) = fault {
            entry.status = code
            return TransportResponse(status: code, headers: [:], bodyBytes: 0)
        }
        var file = URL(fileURLWithPath: path)
        if case .replace(let other) = fault { file = other }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            entry.status = 404
            return TransportResponse(status: 404, headers: [:], bodyBytes: 0)
        }
        var etag = Self.etag(data)
        if case .newValidator = fault { etag = "\"changed\"" }
        var headers = ["ETag": etag, "Content-Type": "application/octet-stream"]
        if request.headers["If-None-Match"] == etag {
            entry.status = 304
            return TransportResponse(status: 304, headers: headers, bodyBytes: 0)
        }
        var status = 200
        var body = data
        if let range = request.headers["Range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
            let start = Int(range.dropFirst(6).dropLast()), request.headers["If-Range"] == etag
        {
            guard start < data.count else {
                entry.status = 416
                return TransportResponse(status: 416, headers: headers, bodyBytes: 0)
            }
            status = 206
            body = data.subdata(in: start..<data.count)
        }
        var drop: TransportError?
        switch fault {
        case .cut(let at): body = body.prefix(at); drop = .offline("the network connection was lost")
        case .stall(let at): body = body.prefix(at); drop = .timeout("no bytes for 1 s")
        case .truncate(let at): body = body.prefix(at)
        case .flip(let at) where at < body.count: body[body.startIndex + at] ^= 0xFF
        case .encoding:
            headers["Content-Encoding"] = "gzip"
            if let inflated = try? Gunzip.inflate([UInt8](body), limit: 1 << 28) { body = Data(inflated) }
        default: break
        }
        let snapshot = TransportResponse(status: status, headers: headers, bodyBytes: 0)
        progress(snapshot)
        do {
            if status == 206, let handle = FileHandle(forWritingAtPath: destination.path) {
                handle.seekToEndOfFile()
                handle.write(body)
                try handle.close()
            } else {
                try body.write(to: destination)
            }
        } catch {
            throw .io("\(error)")
        }
        entry.status = status
        entry.bytes = Int64(body.count)
        progress(TransportResponse(status: status, headers: headers, bodyBytes: Int64(body.count)))
        if let drop { throw drop }
        return TransportResponse(status: status, headers: headers, bodyBytes: Int64(body.count))
    }
}
