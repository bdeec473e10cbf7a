import CityPackBuild
import CityPackTestSupport
import Foundation
import Testing

/// `report.html` loaded in a real headless browser (Debian's chromium): its script must run and filter the
/// diagnostics table, and the page must not reach for the network.
@Suite(.serialized) struct HTMLReportTests {
    static let chromium = OutsideTools.chromium.path

    /// Runs headless chromium with `arguments` and returns stdout (killed after 90 s).
    static func runChromium(_ arguments: [String]) throws -> String {
        guard let chromium else { return "" }
        let profile = try TestPaths.temporaryDirectory("chromium-profile")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium)
        p.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)",
        ] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = DispatchTime.now() + .seconds(90)
        DispatchQueue.global().asyncAfter(deadline: deadline) { if p.isRunning { p.terminate() } }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }


    @Test(.needs(OutsideTools.chromium))
    func filtersRunInABrowser() throws {
        let out = try TestPaths.temporaryDirectory("html-report")
        let r = try CLIRunner.run(["check", "Tests/Fixtures/diagnostics/city", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        #expect(r.status == 1)
        let page = out.appendingPathComponent("diagcity/report.html")
        // The static page says 11 of 11; only the script can produce "3 of 11" for the severity filter.
        let dom = try Self.runChromium(["--dump-dom", page.absoluteString + "?severity=error"])
        #expect(dom.contains("<output id=\"shown-count\">3 of 11 shown</output>"), "\(dom.prefix(3000))")
        #expect(dom.contains("data-filtered=\"3\""))
        let byText = try Self.runChromium(["--dump-dom", page.absoluteString + "?q=stop_times"])
        #expect(byText.contains(">1 of 11 shown<"), "text filter")
        // The map drew the POIs, the stops and the line, and ringed the problems it could place.
        #expect(dom.contains("class=\"poi\"") && dom.contains("class=\"stop\"") && dom.contains("class=\"line\""))
        #expect(dom.contains("class=\"problem error\""))
        // The fixture's walking route, and the warning at its waypoint 3 ringed where the waypoint is.
        #expect(dom.contains("<g class=\"route\" data-route=\"harbour\">") && dom.contains("<polyline class=\"walk\""))
        let ring = dom.components(separatedBy: "<circle class=\"problem warning\" ").dropFirst().first { $0.contains("[editorial.route_implausible_leg]") }
        let waypoint = dom.components(separatedBy: "<circle class=\"waypoint\" ").dropFirst().first { $0.contains("<title>harbour waypoint 3") }
        let centre = { (s: String?) in s?.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(ring != nil && centre(ring) == centre(waypoint), "ring at \(centre(ring) ?? "-"), waypoint at \(centre(waypoint) ?? "-")")
    }

    @Test func selfContained() throws {
        let out = try TestPaths.temporaryDirectory("html-static")
        _ = try CLIRunner.run(["check", "Tests/Fixtures/diagnostics/city", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        let html = try String(contentsOf: out.appendingPathComponent("diagcity/report.html"), encoding: .utf8)
        // No external resources: no src/href attributes, no @import or url(), and the only URL is the SVG namespace.
        for needle in [" src=", " href=", "@import", "url("] { #expect(!html.contains(needle), "\(needle) in report.html") }
        let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
        #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") }, "\(urls)")
        #expect(html.contains("<svg id=\"city-map\""))
        #expect(html.contains("3 errors, 6 warnings, 2 infos in 5 files"))
        // Counts per rule family: osm 1 error, gtfs 1 error, csv 2 warnings, editorial 1 warning, copy 1 error and 1 warning.
        #expect(html.contains("<tr><td>csv</td><td>0</td><td>2</td><td>1</td></tr>"), "\(html)")
        #expect(html.contains("<tr><td>editorial</td><td>0</td><td>1</td><td>0</td></tr>"))
        #expect(html.contains("<tr><td>copy</td><td>1</td><td>1</td><td>0</td></tr>"))
        #expect(html.contains("<tr><td>walking routes</td><td>1</td></tr>") && html.contains("<td>1.37 km</td><td>yes</td>"))
    }

    /// The SVG group of one packed walking route (`<g class="route" data-route="id">` … `</g>`), nil when absent.
    static func routeGroup(_ id: String, in html: String) -> Substring? {
        guard let start = html.range(of: "<g class=\"route\" data-route=\"\(id)\">"), let end = html.range(of: "</g>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return html[start.upperBound..<end.lowerBound]
    }

    /// Monaco ships two walking routes of five waypoints each: both are drawn as dashed polylines through
    /// their waypoints (with alert radii and sequence numbers), named in the legend and counted.
    @Test func walkingRoutesOnTheMap() throws {
        let out = try TestPaths.temporaryDirectory("html-routes")
        let r = try CLIRunner.run(["check", "inputs/monaco", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = out.appendingPathComponent("monaco/report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        for id in ["rocher", "monte_carlo"] {
            let group = try #require(Self.routeGroup(id, in: html), "route \(id) is drawn")
            #expect(group.components(separatedBy: "<polyline class=\"walk\"").count == 2, "one polyline for \(id)")
            #expect(group.components(separatedBy: "<circle class=\"waypoint\"").count == 6, "five waypoints for \(id)")
            #expect(group.components(separatedBy: "<circle class=\"alert\"").count == 6, "five alert radii for \(id)")
            // The polyline goes through five points.
            let points = group.split(separator: "points=\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
            #expect(points.split(separator: " ").count == 5, "\(points)")
        }
        #expect(html.contains("walking route: The Rock</li>") && html.contains("walking route: Monte-Carlo</li>"))
        #expect(html.contains("<tr><td>walking routes</td><td>2</td></tr>"))
        #expect(html.contains("<tr data-route=\"rocher\">") && html.contains("<td>yes</td>"))
        #expect(!html.contains("class=\"route left-out\""), "both routes go into the pack")
        #expect(html.contains("cards · 2 walking routes</p>"))
    }

    /// The browser half of the test above: it parses the SVG and keeps the route groups, their dashed
    /// polylines and waypoints.
    @Test(.needs(OutsideTools.chromium))
    func walkingRoutesSurviveTheBrowser() throws {
        let out = try TestPaths.temporaryDirectory("html-routes-browser")
        let r = try CLIRunner.run(["check", "inputs/monaco", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = out.appendingPathComponent("monaco/report.html")
        let dom = try Self.runChromium(["--dump-dom", page.absoluteString])
        #expect(dom.contains("data-route=\"rocher\"") && dom.contains("data-route=\"monte_carlo\""), "\(dom.prefix(2000))")
        #expect(dom.components(separatedBy: "<polyline class=\"walk\"").count == 3)
        #expect(dom.components(separatedBy: "<circle class=\"waypoint\"").count == 11)
    }

    /// A route with a waypoint outside the city is left out of the pack: the map still draws it, in grey,
    /// rings the error at that waypoint, and the legend and routes table say it was left out.
    @Test func routesLeftOutAreDrawnGreyWithTheirProblem() throws {
        let tmp = try TestPaths.temporaryDirectory("html-left-out")
        let city = tmp.appendingPathComponent("city")
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("Tests/Fixtures/diagnostics/city"), to: city)
        let routes = city.appendingPathComponent("editorial/routes.csv")
        let waypoints = city.appendingPathComponent("editorial/route_waypoints.csv")
        try (String(contentsOf: routes, encoding: .utf8) + "far,Far walk,Promenade lointaine,,\n").write(to: routes, atomically: true, encoding: .utf8)
        try (String(contentsOf: waypoints, encoding: .utf8) + "far,1,,43.7310,7.4210,,Quay,Quai\nfar,2,,43.7700,7.4300,,Hill,Colline\n")
            .write(to: waypoints, atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("out")
        let r = try CLIRunner.run(["check", city.path, "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        #expect(r.stderr.contains("waypoint 2 of route `far` at 43.77, 7.43 is outside the city bounding box"), "\(r.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("diagcity/report.html"), encoding: .utf8)
        #expect(html.contains("<g class=\"route\" data-route=\"harbour\">"), "the packed route stays")
        let start = try #require(html.range(of: "<g class=\"route left-out\" data-route=\"far\">"))
        let group = String(html[start.upperBound...]).components(separatedBy: "</g>")[0]
        #expect(group.contains("<polyline class=\"walk\" stroke=\"#8a8a8a\"") && group.contains(", left out of the pack</title>"))
        let waypoint = group.components(separatedBy: "<circle class=\"waypoint\" ").dropFirst().first { $0.contains("<title>far waypoint 2 Hill") }
        let ring = html.components(separatedBy: "<circle class=\"problem error\" ").dropFirst().first { $0.contains("[editorial.route_waypoint_outside_bbox]") }
        let centre = { (s: String?) in s?.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(waypoint != nil && centre(ring) == centre(waypoint), "ring at \(centre(ring) ?? "-"), waypoint at \(centre(waypoint) ?? "-")")
        #expect(html.contains("route left out of the pack (1)</li>"))
        #expect(html.contains("<code>far</code></td><td>Far walk</td><td>2</td><td>4.40 km</td><td>left out</td></tr>"), "routes table")
        #expect(html.contains("<tr><td>routes left out</td><td>1</td></tr>") && html.contains("2 walking routes · 1 left out of the pack</p>"))
    }
}
