import ArgumentParser
import CityPackBuild
import CityPackKit
import Foundation

/// `citypack installed --store DIR`: the cities of a pack library folder, with their versions and bytes on disk.
struct Installed: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the cities installed in a pack library folder (version, bytes on disk); works offline.",
        discussion: """
            Opening the folder removes what an interrupted install left (staging folders, temporary files, versions \
            no pointer names); the JSON output lists them under "cleaned". Exit codes: 0, 64 usage, 74 I/O failure.
            """)

    @OptionGroup var storeOptions: PackStoreOptions

    struct Output: Encodable {
        struct City: Encodable {
            var city: String
            var version: Int
            var bytesOnDisk: Int64
        }
        var installed: [City]
        var cleaned: CleanupJSON
    }

    func run() throws {
        let library = try storeOptions.offlineLibrary()
        let cities = library.installed()
        switch storeOptions.format {
        case .json:
            Terminal.out(DiagnosticRenderer.encode(Output(
                installed: cities.map { .init(city: $0.city, version: $0.version, bytesOnDisk: $0.bytesOnDisk) },
                cleaned: CleanupJSON(library.cleanup))))
        case .human:
            if !library.cleanup.removed.isEmpty {
                Terminal.err("cleaned up after an interrupted run: \(library.cleanup.removed.joined(separator: ", "))\n")
            }
            if cities.isEmpty { Terminal.err("no cities installed in \(storeOptions.store)\n") }
            for city in cities { Terminal.out("\(city.city)\t\(city.version)\t\(city.bytesOnDisk) bytes\n") }
        }
    }
}
