import CityPackBuild
import CityPackCompiler
import CityPackDiagnostics
import CityPackPreview
import Foundation

// The preview page's state made from a watch round. It stays in the CLI while the watch loop (`CityWatch`) and the
// report's map geometry (`HTMLReport`) are CLI types; it moves into CityPackPreview once they are in a library.

extension PreviewState {
    /// - Parameter excerpts: source lines kept from earlier builds (a file is read again only when it changed).
    static func make(
        round: CityWatch.Round, lastGood: CityWatch.Round?, packOnDisk: Bool, fallbackID: String, excerpts: ExcerptCache
    ) -> PreviewState {
        let build = round.build
        let city = build.city ?? lastGood?.build.city
        let bbox = city.map { [$0.bbox.minLon, $0.bbox.minLat, $0.bbox.maxLon, $0.bbox.maxLat] }
        let places = HTMLReport.ProblemPlaces(build)
        let newOnes = Set((round.delta?.new ?? []).map { $0 })
        var wanted: [String: Set<Int>] = [:]
        for d in round.report.diagnostics.prefix(maxExcerpts) {
            guard let l = d.location, l.line > 0 else { continue }
            wanted[l.file, default: []].formUnion([l.line - 1, l.line, l.line + 1].filter { $0 > 0 })
        }
        let sources = excerpts.lines(wanted)
        var problems: [Problem] = []
        for (i, d) in round.report.diagnostics.enumerated() {
            var excerpt: [ExcerptLine] = []
            if i < maxExcerpts, let l = d.location, l.line > 0 {
                for n in [l.line - 1, l.line, l.line + 1] where n > 0 {
                    guard let bytes = sources[l.file]?[n] else { continue }
                    if n == l.line {
                        let csv = l.field != nil && (l.file.hasSuffix(".txt") || l.file.hasSuffix(".csv"))
                        let (text, marker) = SourceSnippet.render(line: bytes, column: l.column, underlineCSVField: csv)
                        excerpt.append(ExcerptLine(number: n, text: text, marker: marker.isEmpty ? nil : marker))
                    } else {
                        let (text, _) = SourceSnippet.render(line: Array(bytes.prefix(400)), column: 0, underlineCSVField: false)
                        excerpt.append(ExcerptLine(number: n, text: text, marker: nil))
                    }
                }
            }
            let place = places.coordinate(of: d)
            problems.append(Problem(
                severity: d.severity.rawValue, code: d.code, message: d.message, location: d.location?.description,
                file: d.location?.file, line: d.location.map(\.line), entity: d.entity, lat: place?.lat, lon: place?.lon,
                isNew: newOnes.contains(d),
                notes: d.notes.map { $0.message + ($0.location.map { " (\($0.description))" } ?? "") }, excerpt: excerpt))
        }
        let good = round.packWritten ? round : lastGood
        var pack: PackInfo?
        if let good, let emitted = good.build.emitted {
            pack = PackInfo(build: good.number, dataVersion: emitted.manifest.dataVersion, manifest: "/pack/manifest.json")
        } else if packOnDisk {
            pack = PackInfo(build: 0, dataVersion: nil, manifest: "/pack/manifest.json")
        }
        let lines = (good?.build.feeds ?? []).flatMap(HTMLReport.lineGeometries).map { line in
            Line(name: line.name, colour: line.colour, points: line.points.map { [$0.lat, $0.lon] })
        }
        return PreviewState(
            build: round.number, status: round.packWritten ? "passed" : "failed", summary: round.report.summary,
            seconds: (round.seconds * 1000).rounded() / 1000,
            finishedAt: (round.finishedAt.timeIntervalSince1970 * 1000).rounded(), newCount: round.delta?.new.count ?? 0,
            fixedCount: round.delta?.fixed.count ?? 0,
            city: CityInfo(id: city?.id ?? fallbackID, name: city?.name ?? fallbackID, bbox: bbox), pack: pack,
            lines: lines, problems: problems)
    }
}

/// Source lines for excerpts, kept between builds: a file is read again (``SourceLines``; `.gz` through zlib) only
/// when its stamp changed or lines not read before are asked for, so an edit to a CSV does not decompress the OSM
/// file again. One caller at a time.
final class ExcerptCache {
    private var files: [String: (stamp: SourceWatcher.Stamp?, lines: [Int: [UInt8]], asked: Set<Int>)] = [:]

    /// For each file, the lines asked for that exist.
    func lines(_ wanted: [String: Set<Int>]) -> [String: [Int: [UInt8]]] {
        var out: [String: [Int: [UInt8]]] = [:]
        for (file, lines) in wanted {
            let stamp = SourceWatcher.stamp(of: file)
            var entry = files[file] ?? (stamp, [:], [])
            if entry.stamp != stamp { entry = (stamp, [:], []) }
            let missing = lines.subtracting(entry.asked)
            if !missing.isEmpty {
                entry.lines.merge(SourceLines.read(file: file, lines: missing)) { _, new in new }
                entry.asked.formUnion(missing)
            }
            files[file] = entry
            out[file] = entry.lines
        }
        return out
    }
}

