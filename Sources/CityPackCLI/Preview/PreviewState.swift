import CityPackBuild
import CityPackCompiler
import CityPackDiagnostics
import Foundation

/// What `/state.json` tells the preview page after each build: the build's status and summary, every
/// diagnostic with its location, source excerpt and place on the map, and what the map draws besides the pack
/// (the city's box and GTFS lines, from the last build that wrote a pack). The pack itself (POIs, stops, walking
/// routes, search, nearby) the page reads from the web flavour with `citypack.js`, as an app would.
struct PreviewState: Encodable {
    struct CityInfo: Encodable {
        var id: String
        var name: String
        /// minLon, minLat, maxLon, maxLat (degrees).
        var bbox: [Double]?
    }

    /// The pack the page shows: the last one written (by this preview, or before it started).
    struct PackInfo: Encodable {
        /// The build that wrote it (0: found in the output folder when the preview started).
        var build: Int
        var dataVersion: Int?
        /// `/pack/manifest.json`.
        var manifest: String
    }

    struct Line: Encodable {
        var name: String
        var colour: String
        /// [lat, lon] pairs.
        var points: [[Double]]
    }

    struct ExcerptLine: Encodable {
        var number: Int
        var text: String
        /// Caret (and `~` under a CSV field) under the diagnostic's column; only on its own line.
        var marker: String?
    }

    struct Problem: Encodable {
        var severity: String
        var code: String
        var message: String
        /// `file:line:col` as the terminal prints it.
        var location: String?
        var file: String?
        var line: Int?
        var entity: String?
        /// Where on the map (degrees), when its entity has a place.
        var lat: Double?
        var lon: Double?
        /// New since the build before.
        var isNew: Bool
        var notes: [String]
        var excerpt: [ExcerptLine]
    }

    /// Increases with every build (the page compares it with what it shows).
    var build: Int
    /// `passed` (a pack was written) or `failed` (errors: no pack written, the previous one stays).
    var status: String
    var summary: String
    var seconds: Double
    /// When the build ended: milliseconds since 1970 (how long the page took to follow is measured from it).
    var finishedAt: Double
    /// When this state was ready to send (same clock): what the server adds after the build.
    var publishedAt: Double = 0
    var newCount: Int
    var fixedCount: Int
    var city: CityInfo
    var pack: PackInfo?
    var lines: [Line]
    var problems: [Problem]

    /// At most this many problems carry a source excerpt (reading lines of big files costs time).
    static let maxExcerpts = 500

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

    /// The JSON, stamped with ``publishedAt`` now.
    func json() -> Data {
        var stamped = self
        stamped.publishedAt = (Date().timeIntervalSince1970 * 1000).rounded()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(stamped)) ?? Data("{}".utf8)
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

/// The preview's shared state between the build loop (one thread) and the HTTP server's tasks: the latest
/// `/state.json` and the open `/events` streams. Thread-safe.
final class PreviewHub: @unchecked Sendable {
    private let lock = NSLock()
    private var state = Data("{\"build\":0}".utf8)
    private var build = 0
    private var subscribers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    private var nextID = 0
    private var folder: String?

    /// The city's output folder (`<output>/<city>`), what `/pack/` serves; nil before the first build.
    var packFolder: String? {
        get { lock.withLock { folder } }
        set { lock.withLock { folder = newValue } }
    }

    /// The latest state and its build number.
    var current: (build: Int, json: Data) { lock.withLock { (build, state) } }

    /// Open event streams (for tests and the log).
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Stores a build's state and tells every open page (`event: build`).
    func publish(_ json: Data, build: Int) {
        let continuations = lock.withLock {
            state = json
            self.build = build
            return Array(subscribers.values)
        }
        let event = Array("event: build\ndata: {\"build\":\(build)}\n\n".utf8)
        for c in continuations { c.yield(event) }
    }

    /// A comment line to every stream, so connections whose client went away are noticed and closed.
    func ping() {
        let continuations = lock.withLock { Array(subscribers.values) }
        for c in continuations { c.yield(Array(": ping\n\n".utf8)) }
    }

    /// A new event stream: first a `hello` with the current build (and the reconnection delay), then one
    /// `build` event per build. Buffers at most 16 events for a slow reader.
    func subscribe() -> (id: Int, stream: AsyncStream<[UInt8]>) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = lock.withLock {
            nextID += 1
            subscribers[nextID] = continuation
            continuation.yield(Array("retry: 500\nevent: hello\ndata: {\"build\":\(build)}\n\n".utf8))
            return nextID
        }
        return (id, stream)
    }

    func unsubscribe(_ id: Int) {
        let continuation = lock.withLock { subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }
}
