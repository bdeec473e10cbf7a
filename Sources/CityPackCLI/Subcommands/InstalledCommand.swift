import ArgumentParser
import CityPackBuild
import CityPackKit
import Foundation

/// `citypack installed --store DIR`: the cities of a pack library folder, with their versions and bytes on disk.
struct Installed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "installed",
        abstract: "List the cities installed in a pack library folder (version, bytes on disk); works offline.",
        discussion: """
            Opening the folder removes what an interrupted install left (staging folders, temporary files, versions \
            no pointer names); the JSON output lists them under "cleaned". A city with transit has "timetable": \
            {"first", "last"}, and "timetableEnded" (the last date) once its timetable has ended in the city's time \
            zone. Exit codes: 0, 64 usage, 74 I/O failure.
            """)

    @OptionGroup var storeOptions: PackStoreOptions

    struct Output: Encodable {
        struct City: Encodable {
            var city: String
            var version: Int
            var bytesOnDisk: Int64
            /// The dates the installed timetable covers; absent without transit.
            var timetable: Timetable?
            /// The timetable's last date when it has ended (the data is old); absent otherwise.
            var timetableEnded: String?
        }
        struct Timetable: Encodable { var first: String; var last: String }
        var installed: [City]
        var cleaned: CleanupJSON
    }

    func run() throws {
        let library = try storeOptions.offlineLibrary()
        let cities = library.installed()
        switch storeOptions.format {
        case .json:
            Terminal.out(DiagnosticRenderer.encode(Output(
                installed: cities.map {
                    .init(
                        city: $0.city, version: $0.version, bytesOnDisk: $0.bytesOnDisk,
                        timetable: $0.timetable.map { .init(first: $0.first.description, last: $0.last.description) },
                        timetableEnded: $0.timetableEnded()?.description)
                },
                cleaned: CleanupJSON(library.cleanup))))
        case .human:
            if !library.cleanup.removed.isEmpty {
                Terminal.err("cleaned up after an interrupted run: \(library.cleanup.removed.joined(separator: ", "))\n")
            }
            if cities.isEmpty { Terminal.err("no cities installed in \(storeOptions.store)\n") }
            for city in cities {
                let ended = city.timetableEnded().map { "\ttimetable ended on \($0) (the data is old; update the city)" } ?? ""
                Terminal.out("\(city.city)\t\(city.version)\t\(city.bytesOnDisk) bytes\(ended)\n")
            }
        }
    }
}
