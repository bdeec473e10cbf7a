import Foundation

/// One HTTP GET a ``PackTransport`` makes.
public struct TransportRequest: Sendable, Equatable {
    /// The absolute URL.
    public var url: URL
    /// Request headers to send as given: `Range`, `If-Range`, `If-None-Match`, `If-Modified-Since`, ….
    public var headers: [String: String]

    package init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// What the server answered.
public struct TransportResponse: Sendable, Equatable {
    /// The HTTP status (200, 206, 304, 404, …).
    public var status: Int
    /// Response headers, names in lowercase.
    public var headers: [String: String]
    /// Body bytes this response wrote to the destination file (after any decoding the transport did).
    public var bodyBytes: Int64

    public init(status: Int, headers: [String: String], bodyBytes: Int64) {
        self.status = status
        self.headers = headers.reduce(into: [:]) { $0[$1.key.lowercased()] = $1.value }
        self.bodyBytes = bodyBytes
    }

    /// A header by name, any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a transfer did not complete. Bytes written before the failure stay in the destination file, so the next
/// request can resume after them.
public enum TransportError: Error, Sendable, Equatable {
    /// The connection was lost (reset, dropped mid-body): worth retrying after a pause.
    case offline(String)
    /// No way to the server at all: connection refused, host not found (DNS), no network. The library says
    /// `offline` at once instead of backing off, so an app learns within a second or two that it is offline.
    case unreachable(String)
    /// No bytes arrived for the stall timeout.
    case timeout(String)
    /// The calling task was cancelled.
    case cancelled
    /// The destination file could not be written.
    case io(String)
}

/// How a ``PackLibrary`` talks HTTP: one GET at a time, streaming the body to a file. ``URLSessionTransport`` is
/// the default; an app can supply its own (another HTTP stack, a proxy, a test double).
///
/// Contract: the body of a `200` response replaces the destination file's contents; the body of a `206` is
/// appended to it (the caller asked for `Range: bytes=N-` with N the file's size); any other status writes
/// nothing. Content-Encoding decoding is the transport's business, but the response headers are reported as the
/// server sent them, so the library can name a re-encoding it did not expect. Implementations must be
/// thread-safe and honour task cancellation (throw ``TransportError/cancelled``).
public protocol PackTransport: Sendable {
    /// Performs a GET of `request`, writing the body to `destination`.
    /// - Parameters:
    ///   - request: URL and headers.
    ///   - destination: The file to write (created when absent).
    ///   - progress: Called when the response's headers arrive and after each chunk of body written, with the
    ///     status, headers and body bytes written so far; from any thread. (After a failure it tells the caller
    ///     which validator the partial file belongs to.)
    /// - Returns: The status, headers and body size.
    /// - Throws: ``TransportError``.
    func fetch(_ request: TransportRequest, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
        async throws(TransportError) -> TransportResponse
}
