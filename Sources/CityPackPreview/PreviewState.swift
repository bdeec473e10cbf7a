import Foundation

/// What `/state.json` tells the preview page after each build: the build's status and summary, every
/// diagnostic with its location, source excerpt and place on the map, and what the map draws besides the pack
/// (the city's box and GTFS lines, from the last build that wrote a pack). The pack itself (POIs, stops, walking
/// routes, search, nearby) the page reads from the web flavour with `citypack.js`, as an app would.
package struct PreviewState: Encodable, Sendable {
    package struct CityInfo: Encodable, Sendable {
        package var id: String
        package var name: String
        /// minLon, minLat, maxLon, maxLat (degrees).
        package var bbox: [Double]?

        package init(id: String, name: String, bbox: [Double]?) {
            self.id = id
            self.name = name
            self.bbox = bbox
        }
    }

    /// The pack the page shows: the last one written (by this preview, or before it started).
    package struct PackInfo: Encodable, Sendable {
        /// The build that wrote it (0: found in the output folder when the preview started).
        package var build: Int
        package var dataVersion: Int?
        /// `/pack/manifest.json`.
        package var manifest: String

        package init(build: Int, dataVersion: Int?, manifest: String) {
            self.build = build
            self.dataVersion = dataVersion
            self.manifest = manifest
        }
    }

    package struct Line: Encodable, Sendable {
        package var name: String
        package var colour: String
        /// [lat, lon] pairs.
        package var points: [[Double]]

        package init(name: String, colour: String, points: [[Double]]) {
            self.name = name
            self.colour = colour
            self.points = points
        }
    }

    package struct ExcerptLine: Encodable, Sendable {
        package var number: Int
        package var text: String
        /// Caret (and `~` under a CSV field) under the diagnostic's column; only on its own line.
        package var marker: String?

        package init(number: Int, text: String, marker: String?) {
            self.number = number
            self.text = text
            self.marker = marker
        }
    }

    package struct Problem: Encodable, Sendable {
        package var severity: String
        package var code: String
        package var message: String
        /// `file:line:col` as the terminal prints it.
        package var location: String?
        package var file: String?
        package var line: Int?
        package var entity: String?
        /// Where on the map (degrees), when its entity has a place.
        package var lat: Double?
        package var lon: Double?
        /// New since the build before.
        package var isNew: Bool
        package var notes: [String]
        package var excerpt: [ExcerptLine]

        package init(severity: String, code: String, message: String, location: String?, file: String?, line: Int?, entity: String?, lat: Double?, lon: Double?, isNew: Bool, notes: [String], excerpt: [ExcerptLine]) {
            self.severity = severity
            self.code = code
            self.message = message
            self.location = location
            self.file = file
            self.line = line
            self.entity = entity
            self.lat = lat
            self.lon = lon
            self.isNew = isNew
            self.notes = notes
            self.excerpt = excerpt
        }
    }

    /// Increases with every build (the page compares it with what it shows).
    package var build: Int
    /// `passed` (a pack was written) or `failed` (errors: no pack written, the previous one stays).
    package var status: String
    package var summary: String
    package var seconds: Double
    /// When the build ended: milliseconds since 1970 (how long the page took to follow is measured from it).
    package var finishedAt: Double
    /// When this state was ready to send (same clock): what the server adds after the build.
    package var publishedAt: Double = 0
    package var newCount: Int
    package var fixedCount: Int
    package var city: CityInfo
    package var pack: PackInfo?
    package var lines: [Line]
    package var problems: [Problem]

    /// At most this many problems carry a source excerpt (reading lines of big files costs time).
    package static let maxExcerpts = 500

    package init(
        build: Int,
        status: String,
        summary: String,
        seconds: Double,
        finishedAt: Double,
        newCount: Int,
        fixedCount: Int,
        city: CityInfo,
        pack: PackInfo?,
        lines: [Line],
        problems: [Problem]
    ) {
        self.build = build
        self.status = status
        self.summary = summary
        self.seconds = seconds
        self.finishedAt = finishedAt
        self.newCount = newCount
        self.fixedCount = fixedCount
        self.city = city
        self.pack = pack
        self.lines = lines
        self.problems = problems
    }

    /// The JSON, stamped with ``publishedAt`` now.
    package func json() -> Data {
        var stamped = self
        stamped.publishedAt = (Date().timeIntervalSince1970 * 1000).rounded()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(stamped)) ?? Data("{}".utf8)
    }
}
