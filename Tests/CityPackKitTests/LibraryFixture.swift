import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// Two signed releases of Monaco served from one folder, as `citypack build --sign-key` writes them: version 1,
/// then version 2 with one POI renamed (so the catalog lists the delta 1→2). `catalog-v1.json` keeps the signed
/// catalog of version 1 (the "older signed catalog" a stale mirror serves). Built once per test process.
struct LibraryFixture: Sendable {
    /// The served folder (catalog.json, catalog-v1.json, monaco/…).
    let served: URL
    /// The public key that signed everything, raw, and its file (`key.pub`).
    let publicKey: Data
    let publicKeyFile: URL
    let v1: Manifest
    let v2: Manifest
    /// The delta 1→2 as the catalog lists it.
    let delta: Manifest.Delta
    /// What an update from version 1 fetches besides the catalog: the manifest patch 1→2 (the catalog lists it) and
    /// the delta (the size the library's states show).
    var updateBytes: Int { delta.bytes + patchBytes }
    /// Size of the manifest patch 1→2.
    var patchBytes: Int {
        var info = stat()
        return stat(served.appendingPathComponent("monaco/monaco-1-2.manifest-patch.json").path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The POI renamed in version 2, and its names before and after.
    static let renamed = (from: "Pharmacie des Moulins", to: "Pharmacie des Moulins Neuve")

    static let shared: Result<LibraryFixture, FixtureError> = {
        do { return .success(try LibraryFixture()) } catch { return .failure(FixtureError(description: "\(error)")) }
    }()

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    static func get() throws -> LibraryFixture { try shared.get() }

    private init() throws {
        let root = try TestPaths.temporaryDirectory("library-fixture")
        let city = root.appendingPathComponent("inputs/monaco")
        try FileManager.default.createDirectory(at: city.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("inputs/monaco"), to: city)
        served = root.appendingPathComponent("served")
        let key = SigningKey.generate()
        publicKey = key.publicKey
        publicKeyFile = root.appendingPathComponent("key.pub")
        try Data((key.publicKey.base64EncodedString() + "\n").utf8).write(to: publicKeyFile)

        try Self.build(city, output: served, key: key)
        try FileManager.default.copyItem(
            at: served.appendingPathComponent("catalog.json"), to: served.appendingPathComponent("catalog-v1.json"))
        v1 = try PackOpener.readManifest(served.appendingPathComponent("monaco/manifest.json"))

        let osm = city.appendingPathComponent("monaco-2021.osm.gz")
        let xml = try Self.shell("/bin/gzip", ["-dc", osm.path])
        let edited = String(decoding: xml, as: UTF8.self)
            .replacingOccurrences(of: "v=\"\(Self.renamed.from)\"", with: "v=\"\(Self.renamed.to)\"")
        try Data(edited.utf8).write(to: city.appendingPathComponent("monaco-2021.osm"))
        try FileManager.default.removeItem(at: osm)
        _ = try Self.shell("/bin/gzip", ["-n", city.appendingPathComponent("monaco-2021.osm").path])
        try Self.build(city, output: served, key: key)
        v2 = try PackOpener.readManifest(served.appendingPathComponent("monaco/manifest.json"))
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: served.appendingPathComponent("catalog.json")))
        guard v2.dataVersion == v1.dataVersion + 1, let delta = catalog.packs.first?.deltas?.first else {
            throw FixtureError(description: "version 2 or its delta is missing")
        }
        self.delta = delta
    }

    static func build(_ city: URL, output: URL, key: SigningKey) throws {
        let bag = DiagnosticBag()
        var options = BuildOptions(
            cityPath: city.path, outputDirectory: output.path,
            templatesDirectory: TestPaths.root.appendingPathComponent("templates").path, sourceDateEpoch: 1_780_272_000)
        options.release = EmitOptions(keepVersions: 2, signingKey: key)
        options.useCache = false
        let report = Compiler.build(options, bag: bag)
        guard !bag.hasErrors, report.failure == nil, report.emitted != nil else {
            throw FixtureError(description: "build failed: \(bag.diagnostics.filter { $0.severity == .error }.map(\.message))")
        }
    }

    @discardableResult
    static func shell(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError(description: "\(tool) \(arguments) failed") }
        return data
    }

    /// A store folder with version 1 of Monaco installed (through a library reading `catalog-v1.json`).
    func storeWithV1(transport: any PackTransport) async throws -> URL {
        let root = try TestPaths.temporaryDirectory("library-store")
        var configuration = PackLibrary.Configuration(
            catalogURL: served.appendingPathComponent("catalog-v1.json"), storageRoot: root,
            trust: PackTrust(publicKeys: [publicKey]), transport: transport)
        configuration.retryDelay = 0.01
        let library = try PackLibrary(configuration: configuration)
        let state = await library.download("monaco")
        guard state == .onDisk(version: v1.dataVersion) else { throw FixtureError(description: "installing v1: \(state)") }
        return root
    }

    /// Whether the installed Monaco opens offline and answers a search, and its data version.
    static func opens(_ library: PackLibrary) async -> Int? {
        do {
            let reader = try await library.open("monaco")
            defer { reader.close() }
            guard try !reader.search("pharmacie", limit: 5).isEmpty else { return nil }
            return reader.meta.dataVersion
        } catch { return nil }
    }
}
