import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import Foundation

/// The bounding box of a set of sources (for `citypack init`, which writes it into a new city file): the union
/// of the OSM files' declared `<bounds>`, the extent of their nodes, and the extent of the GTFS feeds' stops.
public enum DataExtent {
    /// Reads the sources and measures their extent.
    /// - Parameters:
    ///   - osm: OSM XML files (`.osm`, `.osm.gz`).
    ///   - gtfs: GTFS feeds (folders or zips).
    ///   - templates: the templates folder for the OSM reader's profile; nil = discover from `directory`.
    ///   - directory: the city folder being set up.
    ///   - bag: receives the OSM files' problems and unreadable sources. Feed problems are left to `check`
    ///     (a city file may downgrade them): only the stops are used.
    /// - Returns: the box, or nil when no source gave a position (or the templates folder was not found).
    public static func measure(osm: [String], gtfs: [String], templates: String?, directory: String, bag: DiagnosticBag) -> BoundingBox? {
        var boxes: [BoundingBox] = []
        if !osm.isEmpty {
            guard let dir = TemplateLocator.locate(explicit: templates, cityPath: directory),
                let profile = try? TemplatePOIProfile.load(templatesDirectory: URL(fileURLWithPath: dir))
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
            // Extracts often hold complete ways whose nodes, and sometimes POIs, lie outside the declared bounds.
            boxes += [result.declaredBounds, result.dataBounds].compactMap { $0 }
        }
        for path in gtfs {
            do {
                guard let feed = try GTFSReader.read(path: path, displayPath: path, bag: DiagnosticBag()) else { continue }
                // Plausible stops only: (0,0) and out-of-range points are `check`'s to report.
                let points = feed.stops.compactMap(\.coordinate).filter { $0.isValid && !(abs($0.lat) < 1 && abs($0.lon) < 1) }
                if let box = BoundingBox.enclosing(points) { boxes.append(box) }
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: path))
            }
        }
        let corners = boxes.flatMap {
            [Coordinate(lat: $0.minLat, lon: $0.minLon), Coordinate(lat: $0.maxLat, lon: $0.maxLon)]
        }
        return BoundingBox.enclosing(corners)
    }
}
