import CityPackGeometry
import CityPackModel
import CityPackSupport
import Foundation

/// Writes a `city.yaml` that ``CityFileLoader`` accepts; used by `citypack init`.
public enum CityFileWriter {
    /// The YAML text for a new city. Source paths are written as given (relative to the city directory).
    public static func yaml(
        id: String, name: String, locales: [String], bbox: BoundingBox, osm: [String], gtfs: [String],
        attribution: String, timezone: String? = nil
    ) -> String {
        // A YAML double-quoted scalar: `\` and `"` escaped, control characters as `\n`, `\t` or `\xNN`.
        func quote(_ s: String) -> String {
            let escaped = s.escapingScalars { scalar -> String? in
                switch scalar {
                case "\\": return "\\\\"
                case "\"": return "\\\""
                case "\n": return "\\n"
                case "\t": return "\\t"
                case "\r": return "\\r"
                default:
                    guard scalar.value < 0x20 || scalar.value == 0x7F else { return nil }
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    return "\\x" + (hex.count < 2 ? "0" : "") + hex
                }
            }
            return "\"\(escaped)\""
        }
        func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ", ") + "]" }
        func number(_ d: Double) -> String { DecimalText.fixed(d, places: 7) }
        return """
            # CityPack city file. `citypack build <this folder>` compiles it into a pack.
            id: \(id)
            name: \(quote(name))
            locales: [\(locales.joined(separator: ", "))]
            # minLon, minLat, maxLon, maxLat (degrees)
            bbox: [\(number(bbox.minLon)), \(number(bbox.minLat)), \(number(bbox.maxLon)), \(number(bbox.maxLat))]
            sources:
              osm: \(list(osm))
              gtfs: \(list(gtfs))
            attribution: \(quote(attribution))
            \(timezoneLine(timezone))
            # Per-rule severity overrides, e.g. `osm.poi_missing_name: off` (see `citypack rules`).
            rules: {}

            """
    }

    /// The `timezone:` line: the zone given (derived from the coordinates: an editor may override it), else a
    /// comment saying the feed's zone is used.
    static func timezoneLine(_ zone: String?) -> String {
        guard let zone else {
            return "# timezone: Area/City    # IANA zone of \"open now\" (e.g. Europe/Rome); without it, the GTFS feed's agency_timezone"
        }
        return "timezone: \(zone)    # IANA zone of \"open now\", from the coordinates and the POIs' addr:country; override if wrong"
    }

    /// `target` expressed relative to `directory` when both are on the same tree, else absolute.
    public static func relativePath(of target: String, from directory: String) -> String {
        let t = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let d = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        var i = 0
        while i < t.count && i < d.count && t[i] == d[i] { i += 1 }
        if i <= 1 { return URL(fileURLWithPath: target).standardizedFileURL.path }
        let ups = Array(repeating: "..", count: d.count - i)
        return (ups + t[i...]).joined(separator: "/")
    }
}
