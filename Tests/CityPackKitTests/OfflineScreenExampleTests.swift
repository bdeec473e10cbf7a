import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

// BEGIN app code — the offline screen's flow as a Swift app writes it on CityPackKit (a view renders `chips`
// and the results); OfflineScreenExampleTests counts these lines (goal ≤ 20) and runs the flow.
actor OfflineScreen {
    let library: PackLibrary
    private(set) var chips: [String: PackStateCopy] = [:]
    init(catalog: URL, storage: URL) throws(PackError) {
        library = try PackLibrary(configuration: .init(catalogURL: catalog, storageRoot: storage))
    }
    func start() async {
        Task { for await change in library.states { await show(change) } }
        _ = try? await library.refreshCatalog()  // offline or refused: the stored catalog and cities stay
    }
    func show(_ c: PackStateChange) async {
        let name = await library.catalog?.packs.first { $0.id == c.city }?.name ?? c.city
        chips[c.city] = c.state.copy(cityName: name, installed: library.installed().contains { $0.city == c.city })
    }
    func download(_ city: String) async { _ = await library.update(city) }  // first download or update alike
    func search(_ city: String, _ text: String, near: Coordinate?) async throws -> [PlaceResult] { try await library.open(city).search(text, near: near) }
    func nearby(_ city: String, _ at: Coordinate) async throws -> [PlaceResult] { try await library.open(city).nearby(lat: at.lat, lon: at.lon, radius: 500) }
}
// END app code

@Suite struct OfflineScreenExampleTests {
    static let source = URL(fileURLWithPath: #filePath)

    /// The app code between the markers: non-blank, non-comment lines.
    @Test func appCodeIsAtMostTwentyLines() throws {
        let text = try String(contentsOf: Self.source, encoding: .utf8)
        let start = try #require(text.range(of: "// BEGIN app code"))
        let end = try #require(text.range(of: "// END app code"))
        let body = text[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst()
        let code = body.filter { let t = $0.trimmingCharacters(in: .whitespaces); return !t.isEmpty && !t.hasPrefix("//") }
        print("EXAMPLE swift OfflineScreen: \(code.count) lines of code (non-blank, non-comment) for the offline screen flow")
        #expect(code.count <= 20, "\(code.count) lines: the library should do more")
    }

    /// The flow on a real catalog: the city is listed, downloads with progress, shows "Saved for offline" (the pack's
    /// own copy), and answers toilet/ATM/food/pharmacy searches near a point and nearby — offline, from the store.
    @Test func theFlowRunsOnARealCatalog() async throws {
        let fixture = try LibraryFixture.get()
        let storage = try TestPaths.temporaryDirectory("offline-screen")
        defer { try? FileManager.default.removeItem(at: storage) }
        let screen = try OfflineScreen(catalog: fixture.served.appendingPathComponent("catalog.json"), storage: storage)
        let watcher = Task {
            var kinds: [String] = []
            for await change in screen.library.states where change.city == "monaco" {
                kinds.append(change.state.kind)
                if change.state.kind == "on_disk" || change.state.kind == "failed" { break }
            }
            return kinds
        }
        /// The screen's chip for Monaco once its observer has caught up with `key` (it runs on its own task).
        func chip(becomes key: String) async throws -> String? {
            for _ in 0..<100 where await screen.chips["monaco"]?.text.key != key { try await Task.sleep(nanoseconds: 20_000_000) }
            return await screen.chips["monaco"]?.text.key
        }
        await screen.start()
        #expect(try await chip(becomes: "pack.state.not_downloaded") == "pack.state.not_downloaded")
        await screen.download("monaco")
        let kinds = await watcher.value
        #expect(kinds.contains("downloading") && kinds.last == "on_disk", "\(kinds)")
        #expect(try await chip(becomes: "pack.state.on_disk") == "pack.state.on_disk")

        let center = Coordinate(lat: 43.7384, lon: 7.4246)
        let pack = try await screen.library.open("monaco")
        let strings = try pack.editorial.strings(locale: "en")
        #expect(try #require(await screen.chips["monaco"]).text.text(in: strings) == "Saved for offline")
        for word in ["toilet", "atm", "food", "pharmacy"] {
            let found = try await screen.search("monaco", word, near: center)
            #expect(!found.isEmpty, "\(word)")
            let distances = found.compactMap(\.distanceMetres)
            #expect(distances == distances.sorted(), "\(word): nearest first")
        }
        #expect(try await !screen.nearby("monaco", center).isEmpty)
    }

    @Test func copyLinesFillPlaceholders() {
        let table: [String: LocalizedString] = [
            "pack.state.downloading": .text("Downloading… {percent}% of {size}"),
            "download_error.server_error.message": .text("The server answered with an error ({status}). {{ok}}"),
        ]
        let downloading = PackState.downloading(bytes: 250_000, total: 1_000_000).copy(cityName: "Monaco", installed: false)
        #expect(downloading.text.text(in: table) == "Downloading… 25% of 1 MB")
        let failed = PackState.failed(reason: PackFailure(.serverError, "HTTP 500", status: 500), installedVersion: 1)
            .copy(cityName: "Monaco", installed: true)
        #expect(failed.text.text(in: table) == "The server answered with an error (500). {ok}")
        #expect(failed.headline == CopyLine("pack.state.update_failed"))
        #expect(failed.action?.key == "download_error.server_error.action")
        #expect(PackState.applying.copy(cityName: "Monaco", installed: true).text.key == "pack.state.updating")
        #expect(PackState.applying.copy(cityName: "Monaco", installed: false).text.key == "pack.state.installing")
    }
}
