import ArgumentParser
import CityPackKit
import Foundation

/// `citypack inspect <manifest-or-pack> [--pois]`: what a pack holds.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a pack's manifest, format version, counts and sizes; --pois lists every POI.",
        discussion: "JSON: {\"meta\": {...}, \"counts\": {...}} or, with --pois, {\"results\": [...]} like query.")

    @Argument(help: "A manifest.json, a folder holding one, a .citypack.gz or a decompressed pack database.")
    var pack: String

    @Flag(name: .long, help: "List every POI (id, osm, name, category, lat, lon).")
    var pois = false

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    func run() throws {
        let reader = try PackOpener.open(pack)
        if pois {
            PlaceOutput.write(try reader.allPOIs(), format: format, locale: nil)
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
