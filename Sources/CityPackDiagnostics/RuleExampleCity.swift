/// The example city that rule examples are overlaid on, as text: the same bytes as the files in
/// `Tests/Fixtures/rule-examples/base/` (a test keeps them equal). Examples build their variants from these
/// so that each example differs from the base only where the rule needs it.
///
/// A small valid city: three named-or-exempt POI nodes and a museum area inside the bounding box
/// [7.40, 43.72, 7.44, 43.76], and a GTFS feed of two agencies and one bus route (three stops, two trips, a weekday calendar to 2035,
/// a shape). `citypack check` reports nothing on it.
public enum RuleExampleCity {
    /// Every base file: path relative to the city folder → contents.
    public static let files: [String: String] = [
        "city.yaml": cityYAML,
        "map.osm": osm,
        "gtfs/agency.txt": agency,
        "gtfs/stops.txt": stops,
        "gtfs/routes.txt": routes,
        "gtfs/trips.txt": trips,
        "gtfs/stop_times.txt": stopTimes,
        "gtfs/calendar.txt": calendar,
        "gtfs/shapes.txt": shapes,
    ]

    /// `city.yaml`
    public static let cityYAML = #"""
        # The example city every rule example is checked against (see docs/RULES.md).
        id: example
        name: Example
        names: { de: Beispiel, fr: Exemple }
        locales: [en, de, fr]
        bbox: [7.40, 43.72, 7.44, 43.76]
        sources:
          osm: [map.osm]
          gtfs: [gtfs/]

        """#
    /// `map.osm`
    public static let osm = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="citypack rule examples">
          <node id="1" lat="43.7300000" lon="7.4100000">
            <tag k="amenity" v="pharmacy"/>
            <tag k="name" v="Pharmacie Centrale"/>
          </node>
          <node id="2" lat="43.7400000" lon="7.4200000">
            <tag k="amenity" v="cafe"/>
            <tag k="name" v="Café du Port"/>
          </node>
          <node id="3" lat="43.7500000" lon="7.4300000">
            <tag k="amenity" v="toilets"/>
          </node>
          <node id="4" lat="43.7350000" lon="7.4150000"/>
          <node id="5" lat="43.7350000" lon="7.4160000"/>
          <node id="6" lat="43.7360000" lon="7.4160000"/>
          <node id="7" lat="43.7360000" lon="7.4150000"/>
          <way id="10">
            <nd ref="4"/>
            <nd ref="5"/>
            <nd ref="6"/>
            <nd ref="7"/>
            <nd ref="4"/>
            <tag k="tourism" v="museum"/>
            <tag k="name" v="Musée Océanographique"/>
          </way>
        </osm>

        """#
    /// `gtfs/agency.txt`
    public static let agency = #"""
        agency_id,agency_name,agency_url,agency_timezone
        A,Example Transit,https://transit.example,Europe/Monaco
        B,Example Ferries,https://ferries.example,Europe/Monaco

        """#
    /// `gtfs/stops.txt`
    public static let stops = #"""
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        S1,Port,43.73,7.41,0,
        S2,Casino,43.74,7.42,0,
        S3,Larvotto,43.75,7.43,0,

        """#
    /// `gtfs/routes.txt`
    public static let routes = #"""
        route_id,agency_id,route_short_name,route_long_name,route_type
        R1,A,1,Port – Larvotto,3

        """#
    /// `gtfs/trips.txt`
    public static let trips = #"""
        route_id,service_id,trip_id,block_id,shape_id
        R1,WK,T1,B1,SH1
        R1,WK,T2,B1,SH1

        """#
    /// `gtfs/stop_times.txt`
    public static let stopTimes = #"""
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
        T1,08:00:00,08:00:00,S1,1,0
        T1,08:05:00,08:06:00,S2,2,1.4
        T1,08:10:00,08:10:00,S3,3,2.8
        T2,09:00:00,09:00:00,S3,1,0
        T2,09:05:00,09:05:00,S2,2,1.4
        T2,09:10:00,09:10:00,S1,3,2.8

        """#
    /// `gtfs/calendar.txt`
    public static let calendar = #"""
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20260101,20351231

        """#
    /// `gtfs/shapes.txt`
    public static let shapes = #"""
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
        SH1,43.73,7.41,1,0
        SH1,43.74,7.42,2,1.4
        SH1,43.75,7.43,3,2.8

        """#

    /// `text` with `target` replaced by `replacement`; `target` must occur (a mistyped base fragment would
    /// otherwise silently give an example equal to the base).
    public static func edit(_ text: String, _ target: String, _ replacement: String) -> String {
        // Every occurrence, left to right, compared byte by byte: every process that builds pays for the catalogue's
        // ~100 examples, and Foundation's search took 4 % of an unchanged rebuild.
        let bytes = Array(text.utf8), pattern = Array(target.utf8), with = Array(replacement.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + with.count)
        var i = 0, found = false
        while i < bytes.count {
            if !pattern.isEmpty, bytes.count - i >= pattern.count, bytes[i] == pattern[0],
                bytes[i..<i + pattern.count].elementsEqual(pattern)
            {
                out.append(contentsOf: with)
                i += pattern.count
                found = true
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        precondition(found, "rule example: '\(target)' is not in the base text")
        return String(decoding: out, as: UTF8.self)
    }
}
