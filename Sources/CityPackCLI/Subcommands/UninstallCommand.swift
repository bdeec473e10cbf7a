import ArgumentParser
import CityPackBuild
import CityPackKit
import Foundation

/// `citypack uninstall CITY --store DIR`: removes a city from a pack library folder.
struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove a city from a pack library folder.",
        discussion: "Exit codes: 0 removed (or not installed), 64 usage, 74 I/O failure.")

    @Argument(help: "The city id.")
    var city: String

    @OptionGroup var storeOptions: PackStoreOptions

    func run() throws {
        let library = try storeOptions.offlineLibrary()
        let city = self.city
        let wasInstalled = library.installed().contains { $0.city == city }
        let failure = waitForAsync { () -> PackError? in
            do throws(PackError) {
                try await library.remove(city)
                return nil
            } catch { return error }
        }
        if let failure {
            throw CLIError.ioFailure("\(failure)")
        }
        switch storeOptions.format {
        case .json:
            struct Output: Encodable {
                var city: String
                var removed: Bool
            }
            Terminal.out(DiagnosticRenderer.encode(Output(city: city, removed: wasInstalled)))
        case .human:
            Terminal.out(wasInstalled ? "\(city): removed\n" : "\(city): was not installed\n")
        }
    }
}
