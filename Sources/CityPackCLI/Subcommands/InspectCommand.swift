import ArgumentParser
import CityPackBuild
import CityPackFormat
import CityPackKit
import Foundation

/// `citypack inspect <manifest-or-pack> [--pois]`: what a pack holds.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a pack's manifest, format version, counts and sizes; list POIs, cards, routes or strings.",
        discussion: """
            JSON: {"meta": {...}, "counts": {...}}; with --pois {"results": [...]} like query; with --cards \
            {"cards": [{"id", "title", "icon", "home", "position", "situations": [{..., "actions": [...]}]}]}; with \
            --routes {"routes": [{"id", "name", "description", "lengthMetres", "region", "waypoints": [...]}]}; \
            with --strings LOCALE {"locale", "strings": {"key": "text" | {"one": ..., "other": ...}}}; with --sizes \
            {"pageSize", "databaseBytes", "objects": [{"name", "pages", "bytes", "payload", "gzipBytes"}]}.
            """)

    @Argument(help: "A manifest.json, a folder holding one, a .citypack.gz or a decompressed pack database.")
    var pack: String

    @Flag(name: .long, help: "List every POI (id, osm, name, category, lat, lon).")
    var pois = false

    @Flag(name: .long, help: "List the problem cards with their situations and actions.")
    var cards = false

    @Flag(name: .long, help: "List the walking routes with their waypoints, length and map region.")
    var routes = false

    @Flag(name: .long, help: "Show where the bytes go: pages, bytes, payload and gzip'd bytes per table and index.")
    var sizes = false

    @Option(name: .long, help: "List the UI strings of a locale (with fallbacks), e.g. --strings de.")
    var strings: String?

    @Option(name: .long, help: "Locale for --cards and --routes texts (default: the pack's default locale).")
    var locale: String?

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    func validate() throws {
        if [pois, cards, routes, sizes, strings != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --pois, --cards, --routes, --sizes, --strings LOCALE")
        }
    }

    func run() throws {
        let reader = try PackArgument.open(pack)
        if cards || routes || strings != nil {
            Terminal.out(try EditorialOutput.render(
                reader, cards: cards, routes: routes, strings: strings, locale: locale, format: format))
            return
        }
        if sizes {
            let measured = try PackSizes.measure(databasePath: reader.databasePath)
            Terminal.out(format == .json ? DiagnosticRenderer.encode(measured) : measured.text)
            return
        }
        if pois {
            PlaceOutput.write(try reader.allPOIs(), format: format, locale: nil, timeZone: reader.timeZone)
            return
        }
        let meta = reader.meta.values
        let counts = try reader.categoryCounts()
        switch format {
        case .json:
            struct Output: Encodable {
                var meta: [String: String]
                var counts: [String: Int]
                var formatVersion: Int
            }
            Terminal.out(DiagnosticRenderer.encode(Output(meta: meta, counts: counts, formatVersion: Int(reader.formatVersion))))
        case .human:
            var text = "format version \(reader.formatVersion)\n"
            for (k, v) in meta.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\n" }
            text += "POIs by category:\n"
            for (k, v) in counts.sorted(by: { $0.key < $1.key }) { text += "  \(k): \(v)\n" }
            Terminal.out(text)
        }
    }
}
