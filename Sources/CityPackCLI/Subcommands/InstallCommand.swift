import ArgumentParser
import CityPackBuild
import CityPackKit
import Foundation

/// `citypack install CATALOG_URL CITY --store DIR`: downloads a city, or updates it, as an app's pack library does.
struct Install: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Download or update a city from a catalog into a pack library folder (CityPackKit's PackLibrary).",
        discussion: """
            Fetches the catalog (a conditional request when it was fetched before), then the city's manifest and the \
            delta from the installed version when the catalog lists one smaller than the pack, else the full pack; \
            resumes cut transfers (Range + If-Range), retries with back-off, verifies everything in a staging \
            folder, and switches the new version in atomically: the installed version opens throughout.
            Exit codes: 0 the city is on disk at the catalog's version, 1 the download failed (the reason is one \
            of offline, timeout, server_error, not_enough_space, damaged, tampered, older_release, unsupported), \
            64 usage, 66 missing key file, 74 the store cannot be created.
            """)

    @Argument(help: "URL of catalog.json (http, https or file).")
    var catalogURL: String

    @Argument(help: "The city id.")
    var city: String

    @OptionGroup var storeOptions: PackStoreOptions

    @Option(name: .long, help: "Trusted Ed25519 public key file (PATH.pub from `citypack keygen`); repeatable.")
    var publicKey: [String] = []

    @Flag(name: .long, help: "Always fetch the full pack, never a delta.")
    var noDelta = false

    @Option(name: .long, help: "Seconds without a byte before a request counts as stalled.")
    var stallTimeout: Double = 30

    @Option(name: .long, help: "Retries after a failed attempt.")
    var retries: Int = 4

    @Option(name: .long, help: "Seconds before the first retry (doubling after each).")
    var retryDelay: Double = 1

    #if DEBUG
    /// Appends each install step's name (`manifest`, `download`, `apply`, `commit`, `switched`, `done`) to this
    /// file as it starts, so a kill test knows where a kill landed.
    @Option(name: .customLong("test-phase-log"), help: ArgumentHelp(visibility: .private))
    var phaseLog: String?
    /// Microseconds to sleep at each step.
    @Option(name: .customLong("test-step-delay-us"), help: ArgumentHelp(visibility: .private))
    var stepDelay: UInt32 = 0
    /// Microseconds to sleep after each received chunk.
    @Option(name: .customLong("test-throttle-us"), help: ArgumentHelp(visibility: .private))
    var throttle: UInt32 = 0
    #endif

    func validate() throws {
        guard let url = URL(string: catalogURL), url.scheme != nil else {
            throw ValidationError("\(catalogURL) is not a URL (give http://…, https://… or file://…)")
        }
        guard retries >= 0, retryDelay >= 0, stallTimeout > 0 else {
            throw ValidationError("--retries and --retry-delay must not be negative, --stall-timeout must be positive")
        }
    }

    struct Output: Encodable {
        var city: String
        var state: String
        var version: Int?
        var reason: String?
        var status: Int?
        var message: String?
        var bytesDownloaded: Int64
        var cleaned: CleanupJSON
    }

    func run() throws {
        var keys: [Data] = []
        for file in publicKey {
            do { keys.append(try PackTrust.publicKey(fromFile: URL(fileURLWithPath: file))) } catch {
                Terminal.err("\(file): error: \(error)\n")
                throw ExitCode(error == .fileNotFound(path: file) ? ExitCodes.missingInput : ExitCodes.usage)
            }
        }
        var transport = URLSessionTransport(stallTimeout: stallTimeout)
        var configuration = PackLibrary.Configuration(
            catalogURL: URL(string: catalogURL)!, storageRoot: URL(fileURLWithPath: storeOptions.store),
            trust: keys.isEmpty ? nil : PackTrust(publicKeys: keys))
        #if DEBUG
        transport.throttleMicroseconds = throttle
        configuration.testStep = Self.testStep(log: phaseLog, delay: stepDelay)
        #endif
        let counting = CountingTransport(base: transport)
        configuration.transport = counting
        configuration.useDeltas = !noDelta
        configuration.maxRetries = retries
        configuration.retryDelay = retryDelay
        let library = try storeOptions.openLibrary(configuration)
        let city = self.city
        let state = waitForAsync { await library.downloadLatest(city) }
        var output = Output(
            city: city, state: state.kind, version: state.installedVersion, bytesDownloaded: counting.bytes,
            cleaned: CleanupJSON(library.cleanup))
        if case .failed(let failure, _) = state {
            output.reason = failure.reason.rawValue
            output.status = failure.status
            output.message = failure.message
        }
        switch storeOptions.format {
        case .json:
            Terminal.out(DiagnosticRenderer.encode(output))
        case .human:
            if !library.cleanup.removed.isEmpty {
                Terminal.err("cleaned up after an interrupted run: \(library.cleanup.removed.joined(separator: ", "))\n")
            }
            if case .failed(let failure, let installed) = state {
                let kept = installed.map { "; version \($0) stays installed" } ?? ""
                Terminal.err("\(city): error: [\(failure.reason.rawValue)] \(failure.message)\(kept)\n")
            } else {
                Terminal.out("\(city): \(state.kind) version \(state.installedVersion.map(String.init) ?? "?") (\(counting.bytes) bytes downloaded)\n")
            }
        }
        if case .failed = state { throw ExitCode(ExitCodes.dataErrors) }
    }

    #if DEBUG
    static func testStep(log: String?, delay: UInt32) -> (@Sendable (String) -> Void)? {
        guard log != nil || delay > 0 else { return nil }
        let fd = log.map { open($0, O_WRONLY | O_CREAT | O_APPEND, 0o644) } ?? -1
        return { name in
            if fd >= 0 {
                let line = Array("\(name)\n".utf8)
                _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            if delay > 0 { usleep(delay) }
        }
    }
    #endif
}

/// Counts the body bytes a transport receives (what an install downloads). Thread-safe.
final class CountingTransport: PackTransport, @unchecked Sendable {
    let base: any PackTransport
    private let lock = NSLock()
    private var total: Int64 = 0

    init(base: any PackTransport) { self.base = base }

    private func add(_ bytes: Int64) {
        lock.withLock { total += bytes }
    }

    var bytes: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    func fetch(_ request: TransportRequest, to destination: URL, progress: @escaping @Sendable (TransportResponse) -> Void)
        async throws(TransportError) -> TransportResponse
    {
        let counted = CountingTransport.Latest()
        defer { add(counted.bytes) }
        return try await base.fetch(request, to: destination) { response in
            counted.bytes = response.bodyBytes
            progress(response)
        }
    }

    /// The body bytes of the response in flight.
    final class Latest: @unchecked Sendable {
        var bytes: Int64 = 0
    }
}
