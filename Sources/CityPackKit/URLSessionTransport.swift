import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``PackTransport``: `URLSession` (FoundationNetworking on Linux), one ephemeral session per request,
/// no URL cache and no cookies, the body streamed to the file as it arrives. `file:` URLs are read directly.
///
/// A request that receives no bytes for ``stallTimeout`` seconds is cancelled and reported as
/// ``TransportError/timeout(_:)`` (a watchdog of its own: URLSession's request timeout means different things on
/// different platforms). Thread-safe; requests are independent.
public struct URLSessionTransport: PackTransport {
    /// Seconds without any byte (headers or body) after which a request is given up as stalled. Default 30.
    public var stallTimeout: Double
    /// Test hook: microseconds to sleep after each received chunk (slows a download down on loopback).
    package var throttleMicroseconds: UInt32 = 0

    /// - Parameter stallTimeout: Seconds without progress before ``TransportError/timeout(_:)``.
    public init(stallTimeout: Double = 30) {
        self.stallTimeout = stallTimeout
    }

    public func fetch(_ request: TransportRequest, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
        async throws(TransportError) -> TransportResponse
    {
        if Task.isCancelled { throw .cancelled }
        if request.url.isFileURL { return try Self.copyFile(request.url, to: destination, progress: progress) }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // The watchdog decides when a request has stalled; this is only a backstop.
        urlRequest.timeoutInterval = max(stallTimeout * 4, 60)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        let fetch = SessionFetch(destination: destination, stallTimeout: stallTimeout, throttle: throttleMicroseconds, progress: progress)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: fetch, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>) in
                fetch.start(session.dataTask(with: urlRequest), continuation: continuation)
            }
        } onCancel: {
            fetch.cancelByCaller()
        }
        return try result.get()
    }
}

extension URLSessionTransport {
    /// How a failed request is reported (``TransportError``): refused, no such host, no network → unreachable;
    /// a timeout → timeout; anything else (a reset, a dropped body) → offline, which the library retries.
    package static func classify(_ error: any Error, url: URL?) -> TransportError {
        SessionFetch.classify(error, url: url)
    }

    /// A `file:` URL (a catalog on disk, for tests and side-loading): the whole file, as a `200` (or a `404`).
    static func copyFile(_ url: URL, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
        throws(TransportError) -> TransportResponse
    {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return TransportResponse(status: 404, headers: [:], bodyBytes: 0)
        }
        do { try data.write(to: destination) } catch { throw .io("\(destination.path): \(error)") }
        let response = TransportResponse(status: 200, headers: ["Content-Length": String(data.count)], bodyBytes: Int64(data.count))
        progress(response)
        return response
    }
}

/// The delegate of one request: writes the body, watches for stalls, resumes the caller once.
private final class SessionFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let destination: URL
    private let stallTimeout: Double
    private let throttle: UInt32
    private let progress: @Sendable (TransportResponse) -> Void
    // Guarded by `lock`:
    private var task: URLSessionDataTask?
    private var continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>?
    private var status = 0
    private var headers: [String: String] = [:]
    private var fd: Int32 = -1
    private var written: Int64 = 0
    private var lastActivity = DispatchTime.now()
    private var stalled = false
    private var cancelled = false
    private var writeFailure: String?
    private var watchdog: DispatchSourceTimer?

    init(destination: URL, stallTimeout: Double, throttle: UInt32, progress: @escaping @Sendable (TransportResponse) -> Void) {
        self.destination = destination
        self.stallTimeout = stallTimeout
        self.throttle = throttle
        self.progress = progress
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Result<TransportResponse, TransportError>, Never>) {
        lock.lock()
        self.task = task
        self.continuation = continuation
        lastActivity = .now()
        let alreadyCancelled = cancelled
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let tick = max(0.02, min(0.25, stallTimeout / 8))
        timer.schedule(deadline: .now() + tick, repeating: tick)
        timer.setEventHandler { [weak self] in self?.checkStall() }
        watchdog = timer
        lock.unlock()
        timer.resume()
        if alreadyCancelled { task.cancel() } else { task.resume() }
    }

    func cancelByCaller() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    private func checkStall() {
        lock.lock()
        let idle = Double(DispatchTime.now().uptimeNanoseconds - lastActivity.uptimeNanoseconds) / 1e9
        let fire = idle > stallTimeout && !stalled && continuation != nil
        if fire { stalled = true }
        let task = self.task
        lock.unlock()
        if fire { task?.cancel() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        lastActivity = .now()
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
        }
        if status == 200 || status == 206 {
            let flags = O_WRONLY | O_CREAT | (status == 206 ? O_APPEND : O_TRUNC)
            fd = open(destination.path, flags, 0o644)
            if fd < 0 { writeFailure = "\(destination.path): \(String(cString: strerror(errno)))" }
        }
        let proceed = writeFailure == nil
        let snapshot = TransportResponse(status: status, headers: headers, bodyBytes: 0)
        lock.unlock()
        progress(snapshot)
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        lastActivity = .now()
        var ok = fd >= 0
        if ok {
            ok = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += n
                }
                return true
            }
            if ok { written += Int64(data.count) } else { writeFailure = "\(destination.path): \(String(cString: strerror(errno)))" }
        }
        let snapshot = TransportResponse(status: status, headers: headers, bodyBytes: written)
        let failed = fd >= 0 && !ok
        let report = fd >= 0
        lock.unlock()
        if failed { dataTask.cancel(); return }
        if report { progress(snapshot) }
        if throttle > 0 { usleep(throttle) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        watchdog?.cancel()
        watchdog = nil
        if fd >= 0 {
            fsync(fd)
            close(fd)
            fd = -1
        }
        let continuation = self.continuation
        self.continuation = nil
        let result: Result<TransportResponse, TransportError>
        if let writeFailure {
            result = .failure(.io(writeFailure))
        } else if stalled {
            result = .failure(.timeout("no bytes for \(stallTimeout) s from \(task.originalRequest?.url?.absoluteString ?? "?")"))
        } else if cancelled {
            result = .failure(.cancelled)
        } else if let error {
            result = .failure(Self.classify(error, url: task.originalRequest?.url))
        } else {
            result = .success(TransportResponse(status: status, headers: headers, bodyBytes: written))
        }
        lock.unlock()
        continuation?.resume(returning: result)
    }

    static func classify(_ error: any Error, url: URL?) -> TransportError {
        let where_ = url?.absoluteString ?? "?"
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return .timeout("\(where_): \(urlError.localizedDescription)")
            case .cancelled: return .cancelled
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
                .internationalRoamingOff, .dataNotAllowed, .callIsActive:
                return .unreachable("\(where_): \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            default: return .offline("\(where_): \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            }
        }
        return .offline("\(where_): \(error.localizedDescription)")
    }
}
