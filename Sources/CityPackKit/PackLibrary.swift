import Foundation

/// The pack library: everything an app does with the cities of one catalog — list them with one state each
/// (``PackState``), refresh the catalog, download, update (the delta when it is smaller), cancel, remove, open
/// offline, and list what is installed — without ever losing the installed city.
///
/// Storage (``PackStore``'s layout, under ``Configuration/storageRoot``): one folder per city with a folder per
/// installed version and a pointer file naming the current (and, during a switch, the previous) version. A new
/// version is fetched into a staging folder beside the installed one, verified there (sizes, SHA-256, the
/// manifest's signature and city, the catalog entry, the database's format and `meta`), switched in by renaming the
/// pointer, opened again, and only then is the previous version deleted. A process killed at any moment leaves the
/// last good version openable; the next ``init(configuration:)`` removes the debris and reports it
/// (``cleanup``).
///
/// Network: through ``Configuration/transport`` (``URLSessionTransport`` by default). A dropped connection resumes
/// with `Range` + `If-Range` (the server's validator; a `200` answer means the file changed and the download
/// restarts from zero); failed attempts are retried ``Configuration/maxRetries`` times with exponential back-off.
///
/// Thread safety: an actor; one library per storage root (per process). ``states`` and ``state(of:)`` may be used
/// from any thread.
public actor PackLibrary {
    /// What a library works with.
    public struct Configuration: Sendable {
        /// The catalog (`catalog.json`); pack, delta and manifest paths are relative to it.
        public var catalogURL: URL
        /// The folder the library owns (created when absent).
        public var storageRoot: URL
        /// Trusted keys (``PackTrust/publicKeys``): when set, the catalog's and each manifest's signatures must
        /// verify (else ``PackFailure/Reason/tampered``). Its `installedDataVersion` and `cityID` are ignored: the
        /// library fills them per city.
        public var trust: PackTrust?
        /// How HTTP requests are made.
        public var transport: any PackTransport
        /// Retries after a failed attempt (offline, timeout, HTTP 5xx) before the download fails. Default 4.
        public var maxRetries: Int = 4
        /// Seconds before the first retry; each later one waits twice as long. Default 1.
        public var retryDelay: Double = 1
        /// Fetch a delta when the catalog lists one from the installed version smaller than the pack. Default true.
        public var useDeltas = true
        /// Downloads running at once; others are ``PackState/queued``. Default 2.
        public var maxConcurrentDownloads = 2
        /// Free bytes at the storage root; default nil: `statvfs`. For tests and platforms with their own quota.
        public var freeSpace: (@Sendable (URL) -> Int64?)?
        /// Test hook, called synchronously at each step of an install (`manifest`, `download`, `apply`, `commit`,
        /// `switched`, `done`): the kill test logs phases and slows steps down through it.
        package var testStep: (@Sendable (String) -> Void)?

        /// - Parameters:
        ///   - catalogURL: The catalog.
        ///   - storageRoot: The library's folder.
        ///   - trust: Trusted signing keys, or nil to accept unsigned documents.
        ///   - transport: Default ``URLSessionTransport`` with a 30 s stall timeout.
        public init(catalogURL: URL, storageRoot: URL, trust: PackTrust? = nil, transport: any PackTransport = URLSessionTransport()) {
            self.catalogURL = catalogURL
            self.storageRoot = storageRoot
            self.trust = trust
            self.transport = transport
        }
    }

    /// What the catalog cache remembers besides the catalog's bytes.
    struct CatalogMemo: Codable {
        /// The URL the cached catalog came from (validators are sent only to the same URL).
        var url: String
        /// The server's own validators of `catalog.json` (never the catalog's `etag` members).
        var etag: String?
        var lastModified: String?
        /// The highest data version seen per city, in any accepted catalog or install.
        var seen: [String: Int]
    }

    /// The configuration the library was made with.
    public nonisolated let configuration: Configuration
    /// What ``init(configuration:)`` found left over by an interrupted run and removed.
    package nonisolated let cleanup: StoreCleanup
    let store: PackStore
    let hub = StateHub()
    /// The last accepted catalog (from the network or the cache).
    public internal(set) var catalog: Catalog?
    var memo: CatalogMemo?
    var jobs: [String: Job] = [:]
    var running = 0
    var waiting: [(city: String, continuation: CheckedContinuation<Bool, Never>)] = []

    /// One running download.
    final class Job: @unchecked Sendable {
        let task: Task<PackState, Never>
        init(task: Task<PackState, Never>) { self.task = task }
    }

    /// Opens the library at ``Configuration/storageRoot``: removes what an interrupted run left (``cleanup``),
    /// loads the cached catalog, and sets each city's state.
    /// - Throws: `PackError.io` when the root cannot be created.
    public init(configuration: Configuration) throws(PackError) {
        self.configuration = configuration
        store = try PackStore(root: configuration.storageRoot)
        cleanup = store.cleanUp()
        let folder = store.catalogFolder
        if let data = FileManager.default.contents(atPath: folder.appendingPathComponent("catalog.json").path),
            let memoData = FileManager.default.contents(atPath: folder.appendingPathComponent("http.json").path),
            let memo = try? JSONDecoder().decode(CatalogMemo.self, from: memoData),
            let catalog = try? JSONDecoder().decode(Catalog.self, from: data),
            memo.url == configuration.catalogURL.absoluteString
        {
            self.memo = memo
            self.catalog = catalog
        }
        for (city, state) in Self.restingStates(catalog: catalog, store: store, useDeltas: configuration.useDeltas) {
            hub.set(city, state)
        }
    }

    // MARK: - Observing

    /// State changes, starting with the current state of every known city. Each access makes a new stream; it
    /// ends when the consumer stops iterating.
    public nonisolated var states: AsyncStream<PackStateChange> { hub.stream() }

    /// The current state of `city` (``PackState/notDownloaded`` for a city the library does not know).
    public nonisolated func state(of city: String) -> PackState { hub.state(of: city) }

    /// Every known city (in the catalog or installed) with its state, sorted by city id.
    public nonisolated func allStates() -> [PackStateChange] { hub.all() }

    // MARK: - Installed cities

    /// The installed cities: id, current data version, bytes on disk. Works offline.
    public nonisolated func installed() -> [InstalledPack] { store.installed() }

    /// Opens the installed version of `city` for queries, with the network off: the stored manifest is verified
    /// (its signature when ``Configuration/trust`` has keys), then the database against it (size, SHA-256,
    /// `meta`). When the current version does not open and the previous one is still kept, the library switches
    /// back to it. Once the current version has opened, a kept previous version is deleted.
    /// - Parameter options: Reader options (detail cache, …); `manifest` and `trust` are set by the library.
    /// - Throws: `PackError.fileNotFound` when the city is not installed, else what ``PackReader/open(_:options:)``
    ///   throws.
    public func open(_ city: String, options: PackReader.Options = PackReader.Options()) throws(PackError) -> PackReader {
        guard PackStore.isValidCity(city), let pointer = store.pointer(city) else {
            throw PackError.fileNotFound(path: store.cityFolder(city).path)
        }
        do {
            let reader = try openVersion(city, pointer.current, options: options)
            if let previous = pointer.previous, jobs[city] == nil {
                try? store.writePointer(PackStore.Pointer(current: pointer.current, previous: nil), city: city)
                store.removeVersion(city, previous)
            }
            return reader
        } catch {
            guard let previous = pointer.previous, jobs[city] == nil else { throw error }
            let reader = try openVersion(city, previous, options: options)
            try? store.writePointer(PackStore.Pointer(current: previous, previous: nil), city: city)
            store.removeVersion(city, pointer.current)
            publishResting(city)
            return reader
        }
    }

    /// Opens one stored version through its manifest.
    nonisolated func openVersion(_ city: String, _ version: Int, options: PackReader.Options) throws(PackError) -> PackReader {
        let manifestURL = store.manifest(city, version)
        guard let bytes = FileManager.default.contents(atPath: manifestURL.path) else {
            throw PackError.fileNotFound(path: manifestURL.path)
        }
        let trust = PackTrust(publicKeys: configuration.trust?.publicKeys ?? [], installedDataVersion: nil, cityID: city)
        let manifest = try PackVerifier.verifyManifest(bytes, path: manifestURL.path, trust: trust)
        guard manifest.dataVersion == version else {
            throw PackError.manifestMismatch(field: "data version", manifest: String(manifest.dataVersion), pack: "v\(version)")
        }
        var options = options
        options.manifest = manifest
        options.verifiedManifest = manifest
        options.trust = nil
        return try PackReader.open(store.database(city, version), options: options)
    }

    /// Removes an installed city (cancelling its download first). Works offline.
    /// - Throws: `PackError.io`.
    public func remove(_ city: String) async throws(PackError) {
        if let job = jobs[city] {
            job.task.cancel()
            _ = await job.task.value
        }
        guard PackStore.isValidCity(city) else { return }
        try store.remove(city)
        publishResting(city)
    }

    /// Cancels the download or update of `city`; its state returns to what it was before (the installed version
    /// stays). Nothing happens when none is running.
    public func cancel(_ city: String) {
        jobs[city]?.task.cancel()
        dequeue(city)
        // A paused download (kept from an earlier run) is dropped too: cancel means "not this one".
        if jobs[city] == nil, PackStore.isValidCity(city) {
            store.dropPartials(city)
            publishResting(city)
        }
    }

    // MARK: - States

    /// The state of every city when nothing runs: from the pointer files, the partial downloads and the catalog.
    static func restingStates(catalog: Catalog?, store: PackStore, useDeltas: Bool) -> [String: PackState] {
        var out: [String: PackState] = [:]
        for entry in catalog?.packs ?? [] { out[entry.id] = .notDownloaded }
        for city in store.cities() {
            let state = restingState(city, store: store, catalog: catalog, useDeltas: useDeltas)
            if state != .notDownloaded || out[city] != nil { out[city] = state }
        }
        return out
    }

    /// A city's state when nothing runs: paused when a partial download of the version the catalog offers is
    /// kept (bytes kept of what the whole download fetches), else installed (up to date or not), else not
    /// downloaded.
    static func restingState(_ city: String, store: PackStore, catalog: Catalog?, useDeltas: Bool) -> PackState {
        let installed = store.pointer(city)?.current
        if let catalog, let partial = store.partial(city), let entry = catalog.packs.first(where: { $0.id == city }),
            entry.dataVersion == partial.info.version, installed.map({ $0 < entry.dataVersion }) ?? true,
            let plan = catalog.download(city: city, installedVersion: useDeltas ? installed : nil),
            plan.path == partial.info.path
        {
            let total = downloadBytes(entry: entry, plan: plan)
            // The kept manifest counts what it cost: the patch, or the manifest (as in `total`).
            let manifest = partial.manifestKept ? Int64(plan.manifestPatch?.bytes ?? entry.manifestBytes ?? 0) : 0
            return .paused(version: entry.dataVersion, bytes: min(partial.keptBytes + manifest, total), total: total, installedVersion: installed)
        }
        guard let installed else { return .notDownloaded }
        if let catalog, let newer = catalog.download(city: city, installedVersion: installed),
            let plan = useDeltas ? newer : catalog.download(city: city, installedVersion: nil)
        {
            return .onDiskOutOfDate(version: installed, update: plan.entry.dataVersion, updateBytes: Int(downloadBytes(entry: plan.entry, plan: plan)))
        }
        return .onDisk(version: installed)
    }

    func publishResting(_ city: String) {
        hub.set(city, Self.restingState(city, store: store, catalog: catalog, useDeltas: configuration.useDeltas))
    }

    /// Cities' states after a catalog change (running downloads keep theirs).
    func publishAllResting() {
        for (city, state) in Self.restingStates(catalog: catalog, store: store, useDeltas: configuration.useDeltas) where jobs[city] == nil {
            hub.set(city, state)
        }
    }
}

/// The states of every city, and the streams that observe them. Thread-safe (one lock).
final class StateHub: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [String: PackState] = [:]
    private var observers: [UUID: AsyncStream<PackStateChange>.Continuation] = [:]

    func set(_ city: String, _ state: PackState) {
        lock.lock()
        let changed = states[city] != state
        states[city] = state
        let targets = changed ? Array(observers.values) : []
        lock.unlock()
        for target in targets { target.yield(PackStateChange(city: city, state: state)) }
    }

    func state(of city: String) -> PackState {
        lock.lock()
        defer { lock.unlock() }
        return states[city] ?? .notDownloaded
    }

    func all() -> [PackStateChange] {
        lock.lock()
        defer { lock.unlock() }
        return states.sorted { $0.key < $1.key }.map { PackStateChange(city: $0.key, state: $0.value) }
    }

    func stream() -> AsyncStream<PackStateChange> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .unbounded) { continuation in
            lock.lock()
            for (city, state) in states.sorted(by: { $0.key < $1.key }) {
                continuation.yield(PackStateChange(city: city, state: state))
            }
            observers[id] = continuation
            lock.unlock()
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.observers[id] = nil
                self.lock.unlock()
            }
        }
    }
}
