import ArgumentParser
import CityPackKit
import Foundation

/// Output format of data commands (`query`, `inspect`).
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
    case human, json
}

/// `citypack query <manifest-or-pack> --near LAT,LON [--radius M] | --search TEXT`: what an app would get.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Query a pack as an app would: POIs near a point, or a text search.",
        discussion: """
            JSON output: {"results": [{"id", "osm", "name", "category", "lat", "lon", "distance_m"}]}, sorted by
            distance for --near and by relevance for --search. Exit codes: 0 ok, 64 usage, 66 pack not found,
            1 the pack is invalid (bad hash, unknown format version).
            """)

    @Argument(help: "A manifest.json, a folder holding one, a .citypack.gz or a decompressed pack database.")
    var pack: String

    @Option(name: .long, help: "LAT,LON in degrees.")
    var near: String?

    @Option(name: .long, help: "Radius in metres for --near.")
    var radius: Double = 25

    @Option(name: .long, help: "Search text (any locale; diacritics folded).")
    var search: String?

    @Option(name: .long, help: "Locale used to pick display names (default: the pack's default locale).")
    var locale: String?

    @Option(name: .long, help: "Maximum number of results.")
    var limit: Int = 50

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    func validate() throws {
        if (near == nil) == (search == nil) { throw ValidationError("give exactly one of --near LAT,LON or --search TEXT") }
        if let near, Self.parseLatLon(near) == nil {
            throw ValidationError("--near must be LAT,LON in degrees (e.g. 43.7384,7.4246)")
        }
        if !(radius > 0 && radius <= 100_000) { throw ValidationError("--radius must be in (0, 100000] metres") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    static func parseLatLon(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        return (lat, lon)
    }

    func run() throws {
        let reader = try PackOpener.open(pack)
        let results: [PlaceResult]
        if let near, let (lat, lon) = Self.parseLatLon(near) {
            results = try reader.nearby(lat: lat, lon: lon, radius: radius, limit: limit, locale: locale)
        } else {
            results = try reader.search(search ?? "", locale: locale, limit: limit)
        }
        PlaceOutput.write(results, format: format, locale: locale)
    }
}

/// Opens whatever the user pointed at, mapping failures to exit codes with a clear message.
enum PackOpener {
    static func open(_ path: String) throws -> PackReader {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            Terminal.err("citypack: error: no such pack or manifest: \(path)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        do {
            if isDir.boolValue {
                return try PackReader.open(manifest: URL(fileURLWithPath: path).appendingPathComponent("manifest.json"))
            }
            if path.hasSuffix(".json") { return try PackReader.open(manifest: URL(fileURLWithPath: path)) }
            return try PackReader.open(URL(fileURLWithPath: path))
        } catch {
            Terminal.err("citypack: error: \(path): \(error)\n")
            throw ExitCode(ExitCodes.dataErrors)
        }
    }
}

/// Renders POI results as a table or as `{"results": [...]}`.
enum PlaceOutput {
    struct Row: Encodable {
        var id: Int64
        var osm: String
        var name: String?
        var category: String
        var lat: Double
        var lon: Double
        var distance_m: Double?
    }

    static func rows(_ results: [PlaceResult]) -> [Row] {
        results.map {
            Row(
                id: $0.id, osm: $0.osm, name: $0.name, category: $0.category, lat: $0.lat, lon: $0.lon,
                distance_m: $0.distanceMetres.map { ($0 * 100).rounded() / 100 })
        }
    }

    static func write(_ results: [PlaceResult], format: DataFormat, locale: String?) {
        switch format {
        case .json:
            struct Output: Encodable { var results: [Row] }
            Terminal.out(DiagnosticRenderer.encode(Output(results: rows(results))))
        case .human:
            var text = ""
            for r in results {
                let distance = r.distanceMetres.map { String(format: "%7.1f m  ", $0) } ?? ""
                text += "\(distance)\(r.category.padding(toLength: 16, withPad: " ", startingAt: 0)) \(r.name ?? "(no name)")  [\(r.osm)] \(r.lat),\(r.lon)\n"
            }
            if results.isEmpty { text = "no results\n" }
            Terminal.out(text)
        }
    }
}
