import ArgumentParser
import CityPackKit
import Dispatch
import Foundation

/// `--store DIR` and `--format`, shared by `install`, `installed` and `uninstall`.
struct PackStoreOptions: ParsableArguments {
    @Option(name: .long, help: "The pack library's folder (created when absent).")
    var store: String

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    /// A library on the store for commands that need no catalog (the catalog URL is never fetched).
    func offlineLibrary() throws -> PackLibrary {
        let configuration = PackLibrary.Configuration(
            catalogURL: URL(fileURLWithPath: store).appendingPathComponent("catalog.json"),
            storageRoot: URL(fileURLWithPath: store))
        return try openLibrary(configuration)
    }

    func openLibrary(_ configuration: PackLibrary.Configuration) throws -> PackLibrary {
        do { return try PackLibrary(configuration: configuration) } catch {
            throw CLIError.ioFailure("\(error)")
        }
    }
}

/// What the next start found and cleaned, for the JSON outputs.
struct CleanupJSON: Encodable {
    var removed: [String]
    var repaired: [String]
    init(_ cleanup: StoreCleanup) {
        removed = cleanup.removed
        repaired = cleanup.repaired
    }
}

/// Runs async work from a synchronous command and waits for its result.
func waitForAsync<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = AsyncResultBox<T>()
    Task.detached {
        box.set(await work())
    }
    return box.wait()
}

/// One value handed from a task to a waiting thread.
private final class AsyncResultBox<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: T?

    func set(_ value: T) {
        self.value = value
        done.signal()
    }

    func wait() -> T {
        done.wait()
        return value!
    }
}
