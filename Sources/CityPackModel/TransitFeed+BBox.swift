import CityPackGeometry
/// Which stops and trips of a feed a pack keeps for a city box: the one decision the validator reports
/// (`gtfs.point_outside_pack_bbox`) and the pack writer applies, so the two never disagree.
///
/// A stop is left out when its position lies outside the box, or when it has no position of its own and its
/// parent station (or the parent's parent) is left out. A stop without a valid position and no dropped parent
/// stays (other rules report it). A trip is left out when it has stop times and none of their stops is kept.
public struct TransitBBoxSelection: Sendable {
    /// Per stop (indexing ``GTFSFeed/stops``): kept in the pack.
    public var keepsStop: [Bool]
    /// Per trip (indexing ``GTFSFeed/trips``): kept in the pack.
    public var keepsTrip: [Bool]
    /// Stops left out.
    public var droppedStops: [Int]
    /// Number of trips left out.
    public var droppedTrips: Int
    /// route_ids that have trips, none of them kept: their lines are left out too.
    public var droppedRoutes: Set<String> = []

    /// Everything kept: for cities whose file says `stops_outside_bbox: keep`.
    public static func keepingAll(_ feed: GTFSFeed) -> TransitBBoxSelection {
        TransitBBoxSelection(keepsStop: Array(repeating: true, count: feed.stops.count),
            keepsTrip: Array(repeating: true, count: feed.trips.count), droppedStops: [], droppedTrips: 0)
    }

    init(keepsStop: [Bool], keepsTrip: [Bool], droppedStops: [Int], droppedTrips: Int) {
        self.keepsStop = keepsStop
        self.keepsTrip = keepsTrip
        self.droppedStops = droppedStops
        self.droppedTrips = droppedTrips
    }

    /// The selection for `bbox` (across the antimeridian when it crosses it).
    public init(_ feed: GTFSFeed, bbox: BoundingBox) {
        var keeps = feed.stops.map { stop in stop.coordinate.map { !$0.isValid || bbox.contains($0) } ?? true }
        var index: [String: Int] = [:]
        for (i, stop) in feed.stops.enumerated() where index[stop.id] == nil { index[stop.id] = i }
        // Positionless children (entrances, generic nodes, boarding areas) follow their parent, two levels deep.
        for _ in 0..<2 {
            for (i, stop) in feed.stops.enumerated() where keeps[i] && (stop.coordinate.map { !$0.isValid } ?? true) {
                if let parent = stop.parentStation.flatMap({ index[$0] }), !keeps[parent] { keeps[i] = false }
            }
        }
        let st = feed.stopTimes
        var trips = Array(repeating: true, count: feed.trips.count)
        var droppedTrips = 0
        for (t, range) in st.tripRanges.enumerated() where t < trips.count && !range.isEmpty {
            let anyKept = range.contains { position in
                let stop = Int(st.stop[Int(st.byTrip[Int(position)])])
                return stop < 0 || keeps[stop]
            }
            if !anyKept {
                trips[t] = false
                droppedTrips += 1
            }
        }
        self.init(keepsStop: keeps, keepsTrip: trips, droppedStops: keeps.indices.filter { !keeps[$0] },
            droppedTrips: droppedTrips)
        if droppedTrips > 0 {
            var kept: [String: Bool] = [:]
            for (t, trip) in feed.trips.enumerated() { kept[trip.routeID] = kept[trip.routeID] == true || trips[t] }
            droppedRoutes = Set(kept.filter { !$0.value }.keys)
        }
    }

    /// The selection a city's pack applies: everything when its file says `stops_outside_bbox: keep`.
    public init(_ feed: GTFSFeed, city: City) {
        self = city.keepStopsOutsideBBox ? .keepingAll(feed) : TransitBBoxSelection(feed, bbox: city.bbox)
    }

    /// Stops kept.
    public var keptStopCount: Int { keepsStop.count - droppedStops.count }
}
