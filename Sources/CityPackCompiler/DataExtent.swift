import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import Foundation

/// The bounding box of a city's sources, for `citypack init`, which writes it into a new city file.
///
/// The box holds the places a pack serves: OSM POIs, and GTFS stops that have departures (stops no trip serves,
/// often a whole region's list, do not count). It is the densest cluster of those places, so a few stops or POIs
/// hundreds of kilometres away do not stretch one city's box across a country: with OSM POIs, the box is their
/// main cluster and stops count when they fall inside it (padded by ``stopMargin``); without, the main cluster of
/// the served stops. Places left out are counted in ``Result``. Longitudes are taken on the circle, so data on
/// both sides of ±180° gives a narrow box across the antimeridian.
package enum DataExtent {
    /// What `measure` found.
    package struct Result: Sendable {
        /// The box to write.
        package var box: BoundingBox
        /// Served stops left outside the box.
        package var droppedStops = 0
        /// POIs left outside the box.
        package var droppedPOIs = 0
        /// The country most POIs name in `addr:country` (``CityTimeZone/majorityCountry(_:)``): `init` derives the
        /// time zone with it. Nil when none does.
        package var country: String?
        /// The extent of the places left out, nil when none was.
        package var droppedExtent: BoundingBox?
        /// Served stops outside the main cluster kept because a line serving the cluster reaches them (its
        /// termini and stops on the way, within ``terminusReach``).
        package var lineStopsKept = 0
    }

    /// How far from the main cluster's box the stops of a line that serves the cluster are kept, in degrees of
    /// latitude (≈ 55 km): a metro or rail line's terminus out of town belongs to the city's pack.
    package static let terminusReach = 0.5

    /// Size of the clustering grid in degrees of latitude (≈ 5.6 km); places in touching cells (8 neighbours)
    /// belong to one cluster, so gaps of one cell's width are bridged and wider ones split.
    static let cellDegrees = 0.05
    /// How far around the POIs' cluster stops still count as the city's, in degrees of latitude (≈ 2.2 km).
    static let stopMargin = 0.02
    /// Padding of the final box in degrees (≈ 110 m), so places on its edge stay inside after rounding.
    static let padding = 0.001

    /// Reads the sources and measures their extent.
    /// - Parameters:
    ///   - osm: OSM files (XML or PBF).
    ///   - gtfs: GTFS feeds (folders or zips).
    ///   - templates: the templates folder for the OSM reader's profile; nil = discover from `directory`.
    ///   - directory: the city folder being set up.
    ///   - bag: receives the OSM files' problems and unreadable sources. Feed problems are left to `check`
    ///     (a city file may downgrade them): only the stops are used.
    /// - Returns: the box and what it left out, or nil when no source gave a position (or the templates folder was
    ///   not found).
    package static func measure(osm: [String], gtfs: [String], templates: String?, directory: String, bag: DiagnosticBag)
        -> Result?
    {
        var pois: [Coordinate] = []
        var country: String?
        var fallback: [BoundingBox] = []
        if !osm.isEmpty {
            guard let profile = try? TemplatePOIProfile.load(templates: TemplateLocator.locate(explicit: templates, cityPath: directory))
            else {
                bag.report(Rules.cityMissingSource, "cannot find the templates folder; pass --templates DIR", at: nil)
                return nil
            }
            let reader = OSMReader(profile: profile, bag: bag)
            for file in osm {
                do { try reader.read(file: file, displayPath: file) } catch {
                    bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: file))
                }
            }
            let result = reader.finish()
            pois = result.pois.map(\.coordinate).filter(plausible)
            country = CityTimeZone.majorityCountry(result.pois.lazy.compactMap { $0.tags["addr:country"] })
            fallback += [result.declaredBounds, result.dataBounds].compactMap { $0 }
        }
        var served: [Coordinate] = []
        var lines: [[Coordinate]] = []
        for path in gtfs {
            do {
                // Feed problems are `check`'s, but one that leaves no feed at all is why no box can be derived.
                let feedBag = DiagnosticBag()
                guard let feed = try GTFSReader.read(path: path, displayPath: path, bag: feedBag) else {
                    for d in feedBag.diagnostics where d.severity == .error { bag.report(d) }
                    continue
                }
                let positions = feed.stops.map { $0.coordinate.flatMap { plausible($0) ? $0 : nil } }
                var used = [Bool](repeating: false, count: feed.stops.count)
                for stop in feed.stopTimes.stop where stop >= 0 && Int(stop) < used.count { used[Int(stop)] = true }
                served += feed.stops.indices.compactMap { used[$0] ? positions[$0] : nil }
                // Each route's served stops, so the termini of lines that serve the city stay with it.
                var byRoute: [String: Set<Int>] = [:]
                let st = feed.stopTimes
                for (t, range) in st.tripRanges.enumerated() where t < feed.trips.count {
                    for r in range {
                        let stop = Int(st.stop[Int(st.byTrip[Int(r)])])
                        if stop >= 0 && stop < positions.count { byRoute[feed.trips[t].routeID, default: []].insert(stop) }
                    }
                }
                for (_, stops) in byRoute.sorted(by: { $0.key < $1.key }) { lines.append(stops.sorted().compactMap { positions[$0] }) }
                if let box = BoundingBox.enclosing(positions.compactMap { $0 }) { fallback.append(box) }
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: path))
            }
        }
        if pois.isEmpty && served.isEmpty {
            // Nothing a pack would serve: the extent of whatever the sources hold.
            let corners = fallback.flatMap {
                [Coordinate(lat: $0.minLat, lon: $0.minLon), Coordinate(lat: $0.maxLat, lon: $0.maxLon)]
            }
            return BoundingBox.enclosing(corners).map { Result(box: padded($0)) }
        }
        var found = extent(pois: pois, stops: served, lines: lines)
        found?.country = country
        return found
    }

    /// The box of the main cluster (see the type's documentation) and what it leaves out. The stops of each line
    /// (`lines`: a route's served stops) that serves the cluster are kept when they lie within ``terminusReach``
    /// of it, so a line's terminus out of town is not cut off from the centre it serves.
    static func extent(pois: [Coordinate], stops: [Coordinate], lines: [[Coordinate]] = []) -> Result? {
        let core = mainCluster(pois.isEmpty ? stops : pois)
        guard var box = BoundingBox.enclosing(core) else { return nil }
        if !pois.isEmpty, !stops.isEmpty {
            let around = grown(box, by: stopMargin)
            box = BoundingBox.enclosing(core + stops.filter { around.contains($0) }) ?? box
        }
        let cluster = grown(box, by: stopMargin), reach = grown(box, by: terminusReach)
        var termini: [Coordinate] = []
        for line in lines where line.contains(where: { cluster.contains($0) }) {
            termini += line.filter { !box.contains($0) && reach.contains($0) }
        }
        let inside = box
        if !termini.isEmpty {
            box = BoundingBox.enclosing([Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)] + termini) ?? box
        }
        box = padded(box)
        var result = Result(box: box)
        result.lineStopsKept = Set(stops.filter { !inside.contains($0) && box.contains($0) }.map { "\($0.lat),\($0.lon)" }).count
        let leftPOIs = pois.filter { !box.contains($0) }
        let leftStops = stops.filter { !box.contains($0) }
        result.droppedPOIs = leftPOIs.count
        result.droppedStops = leftStops.count
        result.droppedExtent = BoundingBox.enclosing(leftPOIs + leftStops)
        return result
    }

    /// The places of the largest cluster of touching grid cells (most places; ties go to the cluster whose first
    /// cell sorts first), in input order.
    static func mainCluster(_ points: [Coordinate]) -> [Coordinate] {
        let columns = Int((360 / cellDegrees).rounded())
        let rows = Int((180 / cellDegrees).rounded())
        func cell(_ p: Coordinate) -> Int {
            let row = min(rows - 1, max(0, Int(((p.lat + 90) / cellDegrees).rounded(.down))))
            let column = Int(((p.lon + 180) / cellDegrees).rounded(.down)) % columns
            return row * columns + column
        }
        var counts: [Int: Int] = [:]
        for p in points { counts[cell(p), default: 0] += 1 }
        var component: [Int: Int] = [:]
        var sizes: [Int] = []
        for start in counts.keys.sorted() where component[start] == nil {
            let label = sizes.count
            var size = 0
            var stack = [start]
            component[start] = label
            while let c = stack.popLast() {
                size += counts[c] ?? 0
                let row = c / columns
                let column = c % columns
                for dr in -1...1 {
                    for dc in -1...1 where dr != 0 || dc != 0 {
                        let r = row + dr
                        guard r >= 0 && r < rows else { continue }
                        // Columns wrap: the cells either side of ±180° touch.
                        let n = r * columns + (column + dc + columns) % columns
                        if counts[n] != nil && component[n] == nil {
                            component[n] = label
                            stack.append(n)
                        }
                    }
                }
            }
            sizes.append(size)
        }
        guard let best = sizes.indices.max(by: { (sizes[$0], $1) < (sizes[$1], $0) }) else { return [] }
        return points.filter { component[cell($0)] == best }
    }

    /// Positions a box may use: on Earth and not at (0, 0), a placeholder `check` reports.
    static func plausible(_ p: Coordinate) -> Bool { p.isValid && !(abs(p.lat) < 1 && abs(p.lon) < 1) }

    /// `box` grown by `degrees` of latitude on every side (longitude scaled by the latitude, wrapped at ±180°).
    static func grown(_ box: BoundingBox, by degrees: Double) -> BoundingBox {
        let lat = max(abs(box.minLat), abs(box.maxLat))
        let lonDegrees = min(degrees / max(cos(lat * .pi / 180), 0.01), 180)
        func wrap(_ lon: Double) -> Double { lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon }
        guard box.lonSpan + 2 * lonDegrees < 360 else {
            return BoundingBox(minLon: -180, minLat: max(-90, box.minLat - degrees), maxLon: 180, maxLat: min(90, box.maxLat + degrees))
        }
        return BoundingBox(minLon: wrap(box.minLon - lonDegrees), minLat: max(-90, box.minLat - degrees),
            maxLon: wrap(box.maxLon + lonDegrees), maxLat: min(90, box.maxLat + degrees))
    }

    /// `box` padded by ``padding`` and rounded outward to 7 decimals (≈ 1 cm), so the city file reads back the
    /// same box.
    static func padded(_ box: BoundingBox) -> BoundingBox {
        let g = grown(box, by: padding)
        func down(_ v: Double) -> Double { (v * 1e7).rounded(.down) / 1e7 }
        func up(_ v: Double) -> Double { (v * 1e7).rounded(.up) / 1e7 }
        return BoundingBox(minLon: max(-180, down(g.minLon)), minLat: max(-90, down(g.minLat)),
            maxLon: min(180, up(g.maxLon)), maxLat: min(90, up(g.maxLat)))
    }
}
