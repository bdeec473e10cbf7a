import CityPackSupport
import Foundation

// Fetching one file for the pack library: bounded retries with back-off, resume with Range + If-Range (also after
// a restart, from the validator a partial download recorded), unreachable servers told apart, and the checks of
// what arrived (size, SHA-256, a Content-Encoding added on the way).
extension PackLibrary {
    // MARK: - Fetching

    /// One file over HTTP with bounded retries and exponential back-off; with `resume`, a transfer cut short
    /// continues with `Range: bytes=N-` and `If-Range: <validator of the partial file>` (a `200` answer means the
    /// file changed: the transport rewrites it from the start). HTTP 5xx is retried too; other 4xx fail at once;
    /// an unreachable server (refused, no such host, no network) is `offline` after one quick second try.
    /// - Returns: The final response (200, 206 or 304).
    /// - Throws: ``PackFailure`` (offline, timeout, server_error, not_enough_space) or `CancellationError`.
    nonisolated func fetch(
        _ url: URL, to file: URL, headers: [String: String], resume: Bool, validator: String? = nil,
        onValidator: (@Sendable (String) -> Void)? = nil, progress: @escaping @Sendable (Int64) -> Void
    ) async throws(PackFailure) -> TransportResponse {
        let seen = ResponseBox()
        // The validator of bytes kept from an earlier run (its resume record): the first request goes on from them.
        if let validator { seen.prime(validator) } else if resume { unlink(file.path) }
        var attempt = 0
        var unreachable = 0
        while true {
            if Task.isCancelled { throw PackFailure.cancelled }
            var request = TransportRequest(url: url, headers: headers)
            let have = Self.size(of: file)
            if resume, have > 0, let validator = seen.validator {
                request.headers["Range"] = "bytes=\(have)-"
                request.headers["If-Range"] = validator
            }
            let base = request.headers["Range"] == nil ? Int64(0) : have
            let outcome: Result<TransportResponse, TransportError>
            do throws(TransportError) {
                outcome = .success(try await configuration.transport.fetch(request, to: file) { snapshot in
                    seen.record(snapshot)
                    if snapshot.bodyBytes == 0, let onValidator, let validator = ResponseBox.validator(of: snapshot) { onValidator(validator) }
                    progress((snapshot.status == 206 ? base : 0) + snapshot.bodyBytes)
                })
            } catch {
                outcome = .failure(error)
            }
            let failure: PackFailure
            switch outcome {
            case .success(let response):
                switch response.status {
                case 200, 206, 304:
                    return response
                case 416:
                    // The range is past the file's end: start again from zero.
                    unlink(file.path)
                    seen.clear()
                    failure = PackFailure(.serverError, "\(url.absoluteString): HTTP 416", status: 416)
                case 500...599:
                    failure = PackFailure(.serverError, "\(url.absoluteString): HTTP \(response.status)", status: response.status)
                default:
                    throw PackFailure(.serverError, "\(url.absoluteString): HTTP \(response.status)", status: response.status)
                }
            case .failure(.offline(let message)): failure = PackFailure(.offline, message)
            case .failure(.unreachable(let message)):
                // Refused, no such host, no network: one quick second try (a blip), then offline at once; the
                // back-off is for servers that answer badly, not for a phone without a way to them.
                unreachable += 1
                if unreachable > 1 { throw PackFailure(.offline, message) }
                do { try await Task.sleep(nanoseconds: 250_000_000) } catch { throw PackFailure.cancelled }
                continue
            case .failure(.timeout(let message)): failure = PackFailure(.timeout, message)
            case .failure(.cancelled): throw PackFailure.cancelled
            case .failure(.io(let message)):
                throw PackFailure(message.contains("No space") ? .notEnoughSpace : .damaged, message)
            }
            attempt += 1
            if attempt > configuration.maxRetries { throw failure }
            let delay = configuration.retryDelay * Double(1 << min(attempt - 1, 10))
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { throw PackFailure.cancelled }
        }
    }

    static func size(of file: URL) -> Int64 {
        var info = stat()
        return stat(file.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func contentEncoding(_ response: TransportResponse) -> String? {
        guard let value = response.header("content-encoding")?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty, value.lowercased() != "identity"
        else { return nil }
        return value
    }

    static func encodingHint(_ encoding: String) -> String {
        "the server sent Content-Encoding: \(encoding): the part arrived inflated; serve .gz files without transfer compression"
    }

    /// Nil when the downloaded file has the size and SHA-256 the catalog gives; else the failure, naming a
    /// `Content-Encoding` the server added (or saying the file is not gzip data although it must be).
    static func damage(of file: URL, name: String, bytes: Int, sha256: String, response: TransportResponse) -> PackFailure? {
        let digest = try? FileDigest(path: file.path)
        let actualBytes = digest?.bytes ?? 0
        if actualBytes == bytes, digest?.sha256 == sha256 { return nil }
        var detail = "\(name): \(actualBytes) bytes with SHA-256 \(digest?.sha256.prefix(12) ?? "?")…, "
            + "the catalog says \(bytes) bytes, \(sha256.prefix(12))…"
        if let encoding = contentEncoding(response) {
            detail = encodingHint(encoding) + " (\(detail))"
        } else if let handle = FileHandle(forReadingAtPath: file.path) {
            let head = handle.readData(ofLength: 2)
            try? handle.close()
            if actualBytes > 0, head != Data([0x1F, 0x8B]) {
                detail = "the file is not gzip data: something between the server and the app decompressed it "
                    + "(serve .gz and .delta files without transfer compression) (\(detail))"
            }
        }
        return PackFailure(.damaged, detail)
    }
}

/// The last response headers a transfer reported, for the validator of a partial file. Thread-safe.
final class ResponseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var last: TransportResponse?

    func record(_ response: TransportResponse) {
        lock.lock()
        last = response
        lock.unlock()
    }

    func clear() {
        lock.lock()
        last = nil
        lock.unlock()
    }

    /// Starts from a validator recorded by an earlier run (as if its 200 response had just been seen).
    func prime(_ validator: String) {
        let header = validator.hasPrefix("\"") ? "etag" : "last-modified"
        record(TransportResponse(status: 200, headers: [header: validator], bodyBytes: 0))
    }

    /// The strong ETag, else the Last-Modified date, of the last 200/206 response.
    var validator: String? {
        lock.lock()
        defer { lock.unlock() }
        return last.flatMap(Self.validator(of:))
    }

    /// The strong ETag, else the Last-Modified date, of a 200/206 response.
    static func validator(of response: TransportResponse) -> String? {
        guard response.status == 200 || response.status == 206 else { return nil }
        if let etag = response.header("etag"), !etag.hasPrefix("W/") { return etag }
        return response.header("last-modified")
    }
}

/// The resume record of one download, updated when the server's validator changes. Thread-safe.
final class PartialRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var info: PackStore.Partial

    init(_ info: PackStore.Partial) { self.info = info }

    /// The record with `validator`, when it differs from the one recorded; nil otherwise.
    func update(_ validator: String) -> PackStore.Partial? {
        lock.lock()
        defer { lock.unlock() }
        guard info.validator != validator else { return nil }
        info.validator = validator
        return info
    }
}
