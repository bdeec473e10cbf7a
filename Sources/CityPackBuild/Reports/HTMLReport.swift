import CityPackCompiler
import CityPackDiagnostics
import CityPackFormat
import CityPackModel
import Foundation

/// `report.html`: one self-contained page (inline CSS, JavaScript and SVG; no network) with the summary,
/// counts per rule family and per POI category, a filterable diagnostics table, and an SVG map of the city:
/// POIs coloured by category, GTFS stops and lines, the editorial walking routes (dashed, with their waypoints
/// and alert radii; routes left out of the pack in grey), and the places with problems ringed in red.
///
/// The page is deterministic: the same run gives the same bytes (no timestamps, sorted content).
package enum HTMLReport {
    /// At most this many POIs and stops are drawn (the first in id order); the page says when it cut.
    package static let maxMarkers = 20_000

    /// The page: Assets/report.html with its `{{name}}` slots filled (text escaped; the style sheet, script and
    /// body as they are).
    package static func render(_ report: DiagnosticReport, build: BuildReport, toolVersion: String) -> String {
        let title = "CityPack \(report.command) report — \(build.city?.name ?? report.city ?? "city")"
        var body = "<div class=\"overview\">\n"
        body += mapSection(report, build: build)
        body += countsSection(report, build: build)
        body += "</div>\n"
        body += tableSection(report)
        let slots = [
            "generator": escape(toolVersion), "title": escape(title), "css": css,
            "status": report.errors > 0 ? "failed" : "passed", "summary": escape(report.summary),
            "contents": escape(contentsLine(build)), "body": body, "script": script,
        ]
        return fill(ReportAssets.text("report.html"), slots) + "\n"
    }

    /// `template` with each `{{name}}` replaced by `slots[name]`, in one pass (a value is never read for slots).
    /// - Precondition: every slot of the template has a value (the template is ours; ReportAssetsTests checks it).
    package static func fill(_ template: String, _ slots: [String: String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            out += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let value = slots[name] else { preconditionFailure("report.html: no value for {{\(name)}}") }
            out += value
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    // MARK: Counts

    package static func countsSection(_ report: DiagnosticReport, build: BuildReport) -> String {
        var out = "<section id=\"counts\"><h2>Counts</h2><div class=\"cols\">\n"
        // Diagnostics per rule family and severity.
        var byKind: [String: [Severity: Int]] = [:]
        for d in report.diagnostics {
            let kind = RuleCatalog.rule(d.code)?.kind.rawValue ?? String(d.code.prefix { $0 != "." })
            byKind[kind, default: [:]][d.severity, default: 0] += 1
        }
        out += "<table class=\"counts\" id=\"counts-by-family\"><caption>Diagnostics per rule family</caption>"
        out += "<tr><th>family</th><th>errors</th><th>warnings</th><th>infos</th></tr>\n"
        for kind in byKind.keys.sorted() {
            let c = byKind[kind] ?? [:]
            out += "<tr><td>\(escape(kind))</td><td>\(c[.error] ?? 0)</td><td>\(c[.warning] ?? 0)</td><td>\((c[.info] ?? 0) + (c[.note] ?? 0))</td></tr>\n"
        }
        out += "<tr class=\"total\"><td>total</td><td>\(report.errors)</td><td>\(report.warnings)</td><td>\(report.infos)</td></tr></table>\n"
        // POIs per category.
        var byCategory: [String: Int] = [:]
        for poi in build.pois { byCategory[poi.category, default: 0] += 1 }
        out += "<table class=\"counts\" id=\"counts-by-category\"><caption>POIs per category</caption><tr><th>category</th><th>POIs</th></tr>\n"
        for category in byCategory.keys.sorted() {
            out += "<tr><td><span class=\"swatch\" style=\"background:\(colour(category, in: byCategory.keys.sorted()))\"></span>\(escape(category))</td><td>\(byCategory[category] ?? 0)</td></tr>\n"
        }
        let stops = build.feeds.reduce(0) { $0 + $1.stops.count }
        let lines = build.feeds.reduce(0) { $0 + $1.routes.count }
        out += "<tr class=\"total\"><td>POIs</td><td>\(build.pois.count)</td></tr>"
        out += "<tr><td>GTFS stops</td><td>\(stops)</td></tr><tr><td>GTFS lines</td><td>\(lines)</td></tr>"
        out += "<tr><td>editorial cards</td><td>\(build.cards)</td></tr><tr><td>walking routes</td><td>\(build.routes)</td></tr>"
        if !build.walkingRoutesLeftOut.isEmpty {
            out += "<tr><td>routes left out</td><td>\(build.walkingRoutesLeftOut.count)</td></tr>"
        }
        out += "</table>\n"
        out += routesTable(build)
        out += "</div></section>\n"
        return out
    }

    /// `412 POIs · 38 GTFS stops · 5 GTFS lines · 8 cards · 2 walking routes` under the summary.
    package static func contentsLine(_ build: BuildReport) -> String {
        func n(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        var parts = [
            n(build.pois.count, "POI", "POIs"),
            n(build.feeds.reduce(0) { $0 + $1.stops.count }, "GTFS stop", "GTFS stops"),
            n(build.feeds.reduce(0) { $0 + $1.routes.count }, "GTFS line", "GTFS lines"),
            n(build.cards, "card", "cards"),
            n(build.routes, "walking route", "walking routes"),
        ]
        if !build.walkingRoutesLeftOut.isEmpty { parts.append("\(build.walkingRoutesLeftOut.count) left out of the pack") }
        return parts.joined(separator: " · ")
    }

    /// One row per walking route: id, name, waypoints, length (when every waypoint is placed), pack status.
    package static func routesTable(_ build: BuildReport) -> String {
        let all = build.walkingRoutes.map { ($0, true) } + build.walkingRoutesLeftOut.map { ($0, false) }
        guard !all.isEmpty else { return "" }
        let locale = build.city?.defaultLocale
        var out = "<table class=\"counts\" id=\"routes-table\"><caption>Walking routes</caption>"
        out += "<tr><th>route</th><th>name</th><th>waypoints</th><th>length</th><th>pack</th></tr>\n"
        for (i, (route, packed)) in all.enumerated() {
            let placed = route.waypoints.compactMap(\.coordinate)
            let length = placed.count == route.waypoints.count && placed.count >= 2
                ? String(format: "%.2f km", RouteGeometry.length(placed.map { ($0.lat, $0.lon) }) / 1000) : "—"
            let swatch = packed ? "<span class=\"swatch walk\" style=\"border-color:\(routeColour(i))\"></span>" : "<span class=\"swatch walk left-out\"></span>"
            out += "<tr data-route=\"\(escape(route.id))\"><td>\(swatch)<code>\(escape(route.id))</code></td><td>\(escape(routeName(route, locale: locale)))</td>"
            out += "<td>\(route.waypoints.count)</td><td>\(length)</td><td>\(packed ? "yes" : "left out")</td></tr>\n"
        }
        return out + "</table>\n"
    }

    /// A route's name in the default locale, else any locale (sorted), else its id.
    package static func routeName(_ route: WalkingRoute, locale: String?) -> String {
        if let locale, let name = route.name[locale], !name.isEmpty { return name }
        return route.name.sorted { $0.key < $1.key }.first?.value ?? route.id
    }

    /// Colours of packed routes, by position (deterministic); left-out routes are grey.
    package static let routePalette = ["#8e24aa", "#d81b60", "#00897b", "#ef6c00", "#3949ab", "#6d4c41"]
    package static func routeColour(_ index: Int) -> String { routePalette[index % routePalette.count] }
    package static let leftOutColour = "#8a8a8a"

    // MARK: Map

    /// A point in degrees with a label.
    package struct Marker {
        package var lat: Double
        package var lon: Double
        package var label: String
    }

    /// `value` with one decimal (like `%.1f`, without its cost per call: the map has a point per POI).
    package static func tenths(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.1f", value) }
        let scaled = Int64((value * 10).rounded())
        let magnitude = scaled.magnitude
        return "\(scaled < 0 ? "-" : "")\(magnitude / 10).\(magnitude % 10)"
    }

    package static func mapSection(_ report: DiagnosticReport, build: BuildReport) -> String {
        let categories = Set(build.pois.map(\.category)).sorted()
        let pois = build.pois.sorted { $0.ref < $1.ref }.prefix(maxMarkers)
        var stops: [(String, TransitStop)] = []
        for feed in build.feeds { for stop in feed.stops where stop.coordinate != nil { stops.append((feed.displayPath, stop)) } }
        stops = Array(stops.prefix(maxMarkers))
        let lines = build.feeds.flatMap(lineGeometries)
        let routes = build.walkingRoutes, leftOut = build.walkingRoutesLeftOut

        let places = ProblemPlaces(build)
        var problems: [(Coordinate, Diagnostic)] = []
        for d in report.diagnostics where d.severity == .error || d.severity == .warning {
            if let c = places.coordinate(of: d) { problems.append((c, d)) }
        }

        // Extent: the data (POIs, stops, lines), else the city bbox; 4 % margin.
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        // A city across the antimeridian is drawn with western longitudes moved east by 360°, so it stays whole.
        let wraps = build.city?.bbox.crossesAntimeridian == true
        func east(_ lon: Double) -> Double { wraps && lon < 0 ? lon + 360 : lon }
        func include(_ lat: Double, _ lon: Double) {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return }
            let lon = east(lon)
            minLat = min(minLat, lat); maxLat = max(maxLat, lat); minLon = min(minLon, lon); maxLon = max(maxLon, lon)
        }
        for p in pois { include(p.coordinate.lat, p.coordinate.lon) }
        for (_, s) in stops { if let c = s.coordinate { include(c.lat, c.lon) } }
        for route in routes + leftOut { for w in route.waypoints { if let c = w.coordinate { include(c.lat, c.lon) } } }
        if minLat > maxLat, let bbox = build.city?.bbox {
            include(bbox.minLat, bbox.minLon)
            include(bbox.maxLat, bbox.maxLon)
        }
        var out = "<section id=\"map\"><h2>Map</h2>\n"
        guard minLat <= maxLat else {
            return out + "<p class=\"empty\">Nothing to draw: no POI, stop, waypoint or bounding box.</p></section>\n"
        }
        let spanLat = max(maxLat - minLat, 0.002), spanLon = max(maxLon - minLon, 0.002)
        minLat -= spanLat * 0.04; maxLat += spanLat * 0.04; minLon -= spanLon * 0.04; maxLon += spanLon * 0.04
        // Equirectangular, scaled by cos(latitude) so the city keeps its shape.
        let kx = cos((minLat + maxLat) / 2 * .pi / 180)
        // At most 960 wide and 820 high, keeping the aspect ratio.
        let aspect = (maxLon - minLon) * kx / (maxLat - minLat)
        let width = aspect >= 960.0 / 820.0 ? 960.0 : max(820.0 * aspect, 240)
        let height = aspect >= 960.0 / 820.0 ? max(960.0 / aspect, 240) : 820.0
        func x(_ lon: Double) -> String { tenths((east(lon) - minLon) / (maxLon - minLon) * width) }
        func y(_ lat: Double) -> String { tenths((maxLat - lat) / (maxLat - minLat) * height) }

        out = "<section id=\"map\" style=\"max-width:\(Int(width) + 2)px\"><h2>Map</h2>\n"
        out += "<svg id=\"city-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Map of the city\">\n"
        out += "<rect width=\"100%\" height=\"100%\" class=\"sea\"/>\n"
        if let b = build.city?.bbox {
            out += "<rect class=\"bbox\" x=\"\(x(b.minLon))\" y=\"\(y(b.maxLat))\" width=\"\(String(format: "%.1f", b.lonSpan / (maxLon - minLon) * width))\" height=\"\(String(format: "%.1f", (b.maxLat - b.minLat) / (maxLat - minLat) * height))\"><title>city bbox</title></rect>\n"
        }
        out += "<g id=\"lines\">\n"
        for line in lines {
            let points = line.points.map { "\(x($0.lon)),\(y($0.lat))" }.joined(separator: " ")
            out += "<polyline class=\"line\" stroke=\"\(line.colour)\" points=\"\(points)\"><title>\(escape(line.name))</title></polyline>\n"
        }
        out += "</g>\n<g id=\"pois\">\n"
        var colours: [String: String] = [:]
        for category in Set(pois.map(\.category)) { colours[category] = colour(category, in: categories) }
        for poi in pois {
            let name = poi.name ?? poi.localizedNames.sorted { $0.key < $1.key }.first?.value ?? ""
            out += "<circle class=\"poi\" data-category=\"\(escape(poi.category))\" cx=\"\(x(poi.coordinate.lon))\" cy=\"\(y(poi.coordinate.lat))\" r=\"3\" fill=\"\(colours[poi.category] ?? "")\"><title>\(escape(poi.category)) \(escape(poi.ref.description)) \(escape(name))</title></circle>\n"
        }
        out += "</g>\n<g id=\"stops\">\n"
        for (_, stop) in stops {
            guard let c = stop.coordinate else { continue }
            out += "<rect class=\"stop\" x=\"\(x(c.lon))\" y=\"\(y(c.lat))\" width=\"5\" height=\"5\" transform=\"translate(-2.5,-2.5)\"><title>stop \(escape(stop.id)) \(escape(stop.name ?? ""))</title></rect>\n"
        }
        out += "</g>\n<g id=\"routes\">\n"
        // Metres to pixels along the latitude axis (1° of latitude ≈ 111.32 km).
        let pixelsPerMetre = height / ((maxLat - minLat) * 111_320)
        var poiNames: [Int64: String] = [:]
        if !(routes.isEmpty && leftOut.isEmpty) {
            for poi in build.pois { poiNames[poi.ref.stableID] = poi.name ?? poi.localizedNames.sorted { $0.key < $1.key }.first?.value }
        }
        let locale = build.city?.defaultLocale
        func draw(_ route: WalkingRoute, colour: String, packed: Bool) {
            let placed = route.waypoints.compactMap { w in w.coordinate.map { (w, $0) } }
            let name = routeName(route, locale: locale)
            out += "<g class=\"route\(packed ? "" : " left-out")\" data-route=\"\(escape(route.id))\">\n"
            for (w, c) in placed {
                out += "<circle class=\"alert\" cx=\"\(x(c.lon))\" cy=\"\(y(c.lat))\" r=\"\(String(format: "%.1f", max(w.radius * pixelsPerMetre, 1)))\" fill=\"\(colour)\"/>\n"
            }
            if placed.count >= 2 {
                let points = placed.map { "\(x($0.1.lon)),\(y($0.1.lat))" }.joined(separator: " ")
                let length = RouteGeometry.length(placed.map { ($0.1.lat, $0.1.lon) })
                var title = "walking route \(route.id) — \(name), \(route.waypoints.count) waypoints, \(String(format: "%.2f", length / 1000)) km"
                if !packed { title += ", left out of the pack" }
                out += "<polyline class=\"walk\" stroke=\"\(colour)\" points=\"\(points)\"><title>\(escape(title))</title></polyline>\n"
            }
            for (w, c) in placed {
                var label = w.name[locale ?? ""] ?? w.name.sorted { $0.key < $1.key }.first?.value
                if label == nil, case .poi(let id) = w.place { label = poiNames[id] }
                let title = "\(route.id) waypoint \(w.sequence)\(label.map { " " + $0 } ?? ""), alert radius \(Int(w.radius.rounded())) m"
                out += "<circle class=\"waypoint\" cx=\"\(x(c.lon))\" cy=\"\(y(c.lat))\" r=\"4.5\" stroke=\"\(colour)\"><title>\(escape(title))</title></circle>"
                out += "<text class=\"seq\" x=\"\(x(c.lon))\" y=\"\(y(c.lat))\" dx=\"6\" dy=\"-6\">\(w.sequence)</text>\n"
            }
            out += "</g>\n"
        }
        for (i, route) in routes.enumerated() { draw(route, colour: routeColour(i), packed: true) }
        for route in leftOut { draw(route, colour: leftOutColour, packed: false) }
        out += "</g>\n<g id=\"problems\">\n"
        for (c, d) in problems {
            out += "<circle class=\"problem \(d.severity.rawValue)\" cx=\"\(x(c.lon))\" cy=\"\(y(c.lat))\" r=\"8\"><title>\(escape(d.severity.rawValue)) [\(escape(d.code))] \(escape(d.message))</title></circle>\n"
        }
        out += "</g>\n</svg>\n"
        // Legend.
        out += "<ul class=\"legend\">"
        for category in categories {
            out += "<li><span class=\"swatch\" style=\"background:\(colour(category, in: categories))\"></span>\(escape(category))</li>"
        }
        if !stops.isEmpty { out += "<li><span class=\"swatch stop\"></span>GTFS stop</li>" }
        if !lines.isEmpty { out += "<li><span class=\"swatch linekey\"></span>GTFS line</li>" }
        for (i, route) in routes.enumerated() {
            out += "<li><span class=\"swatch walk\" style=\"border-color:\(routeColour(i))\"></span>walking route: \(escape(routeName(route, locale: build.city?.defaultLocale)))</li>"
        }
        if !leftOut.isEmpty { out += "<li><span class=\"swatch walk left-out\"></span>route left out of the pack (\(leftOut.count))</li>" }
        let ringed = problems.filter { $0.1.severity == .error }.count
        out += "<li><span class=\"swatch ring\"></span>error (\(ringed))</li>"
        out += "<li><span class=\"swatch ring warn\"></span>warning (\(problems.count - ringed))</li></ul>\n"
        if build.pois.count > maxMarkers || stops.count >= maxMarkers {
            out += "<p class=\"note\">Only the first \(maxMarkers) POIs and stops are drawn.</p>\n"
        }
        return out + "</section>\n"
    }

    /// Where the map puts a problem: at the POI (`n123`), stop (`stop_id=S1`) or waypoint (`rocher#3`) its
    /// entity names; a route-level problem of routes.csv or route_waypoints.csv (`rocher`) at the route's first
    /// placed waypoint. Shared by report.html and `citypack preview`.
    package struct ProblemPlaces {
        package var positions: [String: Coordinate] = [:]
        package var routeStart: [String: Coordinate] = [:]

        package init(_ build: BuildReport) {
            for poi in build.pois { positions[poi.ref.description] = poi.coordinate }
            for feed in build.feeds { for stop in feed.stops { if let c = stop.coordinate { positions["stop_id=\(stop.id)"] = c } } }
            for route in build.walkingRoutes + build.walkingRoutesLeftOut {
                for w in route.waypoints {
                    guard let c = w.coordinate else { continue }
                    if positions["\(route.id)#\(w.sequence)"] == nil { positions["\(route.id)#\(w.sequence)"] = c }
                    if routeStart[route.id] == nil { routeStart[route.id] = c }
                }
            }
        }

        /// The problem's place on the map, nil when its entity has none.
        package func coordinate(of d: Diagnostic) -> Coordinate? {
            guard let entity = d.entity else { return nil }
            if let c = positions[entity] { return c }
            if let file = d.location?.file, file.hasSuffix("routes.csv") || file.hasSuffix("route_waypoints.csv") {
                return routeStart[entity]
            }
            return nil
        }
    }

    package struct LineGeometry {
        package var name: String
        package var colour: String
        package var points: [Coordinate]
    }

    /// One polyline per GTFS route: the shape of its first trip (by trip id), else that trip's stops in order.
    package static func lineGeometries(_ feed: GTFSFeed) -> [LineGeometry] {
        var firstTrip: [String: Int] = [:]
        for (i, trip) in feed.trips.enumerated() {
            if let j = firstTrip[trip.routeID], feed.trips[j].id <= trip.id { continue }
            firstTrip[trip.routeID] = i
        }
        var shapePoints: [String: [(Int32, Coordinate)]] = [:]
        let shapes = feed.shapes
        for i in 0..<shapes.count {
            let id = shapes.ids[Int(shapes.shape[i])]
            shapePoints[id, default: []].append((shapes.sequence[i], Coordinate(lat: shapes.lat[i], lon: shapes.lon[i])))
        }
        var out: [LineGeometry] = []
        for route in feed.routes.sorted(by: { $0.id < $1.id }) {
            guard let t = firstTrip[route.id] else { continue }
            var points: [Coordinate] = []
            if let shape = feed.trips[t].shapeID, let pts = shapePoints[shape] {
                points = pts.sorted { $0.0 < $1.0 }.map(\.1)
            } else if t < feed.stopTimes.tripRanges.count {
                for k in feed.stopTimes.tripRanges[t] {
                    let row = Int(feed.stopTimes.byTrip[Int(k)])
                    let s = Int(feed.stopTimes.stop[row])
                    if s >= 0, s < feed.stops.count, let c = feed.stops[s].coordinate { points.append(c) }
                }
            }
            guard points.count >= 2 else { continue }
            let colour = route.color.flatMap { $0.count == 6 && $0.allSatisfy(\.isHexDigit) ? "#\($0)" : nil } ?? "#1f5fbf"
            let name = [route.shortName, route.longName].compactMap { $0 }.joined(separator: " ")
            out.append(LineGeometry(name: name.isEmpty ? route.id : name, colour: colour, points: points))
        }
        return out
    }

    // MARK: Table

    package static func tableSection(_ report: DiagnosticReport) -> String {
        let kinds = Set(report.diagnostics.map { RuleCatalog.rule($0.code)?.kind.rawValue ?? "other" }).sorted()
        var out = "<section id=\"diagnostics\"><h2>Diagnostics</h2>\n<form id=\"filters\" onsubmit=\"return false\">"
        out += "<label>severity <select id=\"f-severity\"><option value=\"\">all</option><option>error</option><option>warning</option><option>info</option></select></label> "
        out += "<label>family <select id=\"f-kind\"><option value=\"\">all</option>"
        for k in kinds { out += "<option>\(escape(k))</option>" }
        out += "</select></label> <label>search <input id=\"f-text\" type=\"search\" placeholder=\"code, file or text\"></label> "
        out += "<output id=\"shown-count\">\(report.diagnostics.count) of \(report.diagnostics.count) shown</output></form>\n"
        out += "<table id=\"diagnostic-table\"><thead><tr><th>severity</th><th>location</th><th>code</th><th>message</th></tr></thead><tbody>\n"
        for d in report.diagnostics {
            let kind = RuleCatalog.rule(d.code)?.kind.rawValue ?? "other"
            var message = escape(d.message)
            for note in d.notes {
                message += "<br><span class=\"note\">note: \(escape(note.message))\(note.location.map { " (" + escape($0.description) + ")" } ?? "")</span>"
            }
            out += "<tr class=\"\(d.severity.rawValue)\" data-severity=\"\(d.severity.rawValue)\" data-kind=\"\(escape(kind))\">"
            out += "<td>\(d.severity.rawValue)</td><td class=\"loc\">\(escape(d.location?.description ?? ""))</td><td><code>\(escape(d.code))</code></td><td>\(message)</td></tr>\n"
        }
        out += "</tbody></table>\n"
        if !report.fixed.isEmpty {
            out += "<h3>Baseline entries now fixed</h3><ul id=\"fixed\">"
            for entry in report.fixed {
                out += "<li><code>\(escape(entry.code))</code> \(escape(entry.file ?? "")) \(escape(entry.entity ?? "")) — \(escape(entry.message))</li>"
            }
            out += "</ul>\n"
        }
        return out + "</section>\n"
    }

    // MARK: Helpers

    /// A colour per category from its position in sorted order (deterministic): hues 137.5° apart (the
    /// golden angle), alternating lightness, so even 30 categories stay tellable apart.
    package static func colour(_ category: String, in sorted: [String]) -> String {
        let i = sorted.firstIndex(of: category) ?? 0
        let hue = (Double(i) * 137.508).truncatingRemainder(dividingBy: 360)
        let lightness = [46, 34, 58][i % 3]
        return String(format: "hsl(%.0f,70%%,%d%%)", hue, lightness)
    }

    package static func escape(_ text: String) -> String {
        // By byte, not character: `"` followed by a combining mark is one character that is not `"`, and UTF-8
        // never uses these ASCII bytes inside another scalar. Most texts need nothing (returned as they are).
        let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            case 0x27: out += Array("&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The page's style sheet and script: Sources/CityPackBuild/Assets/report.css and report.js, embedded at build
    /// time (``ReportAssets``) so a binary copied away from its checkout writes the same page.
    package static var css: String { ReportAssets.text("report.css") }
    package static var script: String { ReportAssets.text("report.js") }
}
