import ArgumentParser
import CityPackBuild
import CityPackKit
import Foundation

/// `citypack diff OLD NEW`: what changed between two packs of a city.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two packs: POIs, stops and lines added, removed, moved, renamed, …",
        discussion: """
            OLD and NEW are each a manifest.json, a folder holding one, a .citypack.gz or a decompressed pack. \
            Records are matched by stable keys (OSM ref, feed:stop_id, feed:route_id). A POI or stop is `moved` \
            when it moved more than 10 m. JSON: {"old", "new", "identical", "entities": [{"entity", "counts", \
            "changes"}]}. Exit codes: 0 compared (whether or not anything changed), 1 unreadable pack, \
            66 missing file.
            """)

    @Argument(help: "The older pack or manifest.")
    var old: String

    @Argument(help: "The newer pack or manifest.")
    var new: String

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    @Option(name: .long, help: "List at most this many changes per kind of record in human output.")
    var limit: Int = 50

    func run() throws {
        let before = try PackArgument.open(old)
        defer { before.close() }
        let after = try PackArgument.open(new)
        defer { after.close() }
        let diff = try PackDiff.between(before, after)
        switch format {
        case .json:
            struct Output: Encodable {
                var old: PackDiff.Side
                var new: PackDiff.Side
                var identical: Bool
                var entities: [PackDiff.Entity]
            }
            Terminal.out(DiagnosticRenderer.encode(Output(old: diff.old, new: diff.new, identical: diff.isEmpty, entities: diff.entities)))
        case .human:
            Terminal.out(Self.human(diff, limit: limit))
        }
    }

    static func human(_ diff: PackDiff, limit: Int) -> String {
        func side(_ s: PackDiff.Side) -> String { "\(s.city) v\(s.dataVersion.map(String.init) ?? "?")" }
        var text = "\(side(diff.old)) → \(side(diff.new))"
        if diff.isEmpty { return text + ": no changes\n" }
        text += "\n"
        for entity in diff.entities {
            let order = ["added", "removed", "moved", "renamed", "recategorised", "changed"]
            let counts = order.compactMap { key in entity.counts[key].flatMap { $0 > 0 ? "\($0) \(key)" : nil } }
            text += "\(entity.entity): " + (counts.isEmpty ? "no changes" : counts.joined(separator: ", ")) + "\n"
            for change in entity.changes.prefix(max(0, limit)) {
                let name = change.name.map { " \"\($0)\"" } ?? ""
                let category = change.fields.first { $0.field == "category" }.flatMap { $0.new ?? $0.old }.map { " [\($0)]" } ?? ""
                switch change.change {
                case .added: text += "  + \(change.key)\(name)\(category)\n"
                case .removed: text += "  - \(change.key)\(name)\(category)\n"
                case .modified:
                    var what = change.aspects.joined(separator: ", ")
                    if let d = change.distanceMetres { what += String(format: " (%.0f m)", d) }
                    text += "  ~ \(change.key)\(name): \(what)\n"
                    for field in change.fields {
                        text += "      \(field.field): \(field.old ?? "∅") → \(field.new ?? "∅")\n"
                    }
                }
            }
            if entity.changes.count > limit { text += "  … \(entity.changes.count - limit) more (--limit, --format json)\n" }
        }
        return text
    }
}
