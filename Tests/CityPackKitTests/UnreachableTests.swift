import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// An unreachable server is `offline` at once (issue 42, point 6: connection refused was retried 1+2+4+8 s, twice,
/// so Swift took ~30 s to say offline): through the real transport, a refused connection is tried twice (one
/// quick second try) and fails as `offline`, while a server that answers 503 is still retried with back-off.
@Suite struct UnreachableTests {
    /// Counts the requests a transport makes.
    final class Counting: PackTransport, @unchecked Sendable {
        let inner: any PackTransport
        private let lock = NSLock()
        private var n = 0
        var count: Int { lock.withLock { n } }
        init(_ inner: any PackTransport) { self.inner = inner }
        func fetch(_ request: TransportRequest, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
            async throws(TransportError) -> TransportResponse
        {
            lock.withLock { n += 1 }
            return try await inner.fetch(request, to: destination, progress: progress)
        }
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        return UInt16(bigEndian: address.sin_port)
    }

    @Test func aRefusedConnectionIsOfflineAfterOneQuickRetry() async throws {
        let port = try Self.closedPort()
        let root = try TestPaths.temporaryDirectory("unreachable")
        defer { try? FileManager.default.removeItem(at: root) }
        let counting = Counting(URLSessionTransport(stallTimeout: 5))
        var configuration = PackLibrary.Configuration(
            catalogURL: URL(string: "http://127.0.0.1:\(port)/catalog.json")!, storageRoot: root, transport: counting)
        configuration.maxRetries = 4
        configuration.retryDelay = 1
        let library = try PackLibrary(configuration: configuration)
        let started = Date()
        do {
            try await library.refreshCatalog()
            Issue.record("a refused connection gave a catalog")
        } catch {
            #expect(error.reason == .offline, "\(error)")
        }
        // Two requests, not 1 + maxRetries with 1+2+4+8 s between them.
        #expect(counting.count == 2)
        print("UNREACHABLE offline after \(counting.count) requests in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        // A download of a city is told the same way.
        let state = await library.download("monaco")
        guard case .failed(let failure, nil) = state else { Issue.record("\(state)"); return }
        #expect(failure.reason == .offline)
        #expect(counting.count == 4)
    }

    @Test func transportErrorsAreClassified() {
        // URLSessionTransport's classification of URLError codes (refused / DNS / no network → unreachable;
        // a lost connection stays offline, to be retried).
        #expect(URLSessionTransport.classify(URLError(.cannotConnectToHost), url: nil).isUnreachable)
        #expect(URLSessionTransport.classify(URLError(.cannotFindHost), url: nil).isUnreachable)
        #expect(URLSessionTransport.classify(URLError(.notConnectedToInternet), url: nil).isUnreachable)
        #expect(!URLSessionTransport.classify(URLError(.networkConnectionLost), url: nil).isUnreachable)
        #expect(URLSessionTransport.classify(URLError(.timedOut), url: nil) == .timeout("?: \(URLError(.timedOut).localizedDescription)"))
    }
}

extension TransportError {
    var isUnreachable: Bool { if case .unreachable = self { true } else { false } }
}
