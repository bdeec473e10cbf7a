import CityPackFormat
import CityPackModel

extension Compiler {
    /// The routes with each waypoint placed where the data allows, for the report's map: a free point at its
    /// coordinate, a POI waypoint at the position of that POI among `pois` (left unplaced when it is not there).
    /// Order and content are otherwise unchanged.
    static func placedRoutes(_ routes: [WalkingRoute], pois: [POI]) -> [WalkingRoute] {
        guard !routes.isEmpty else { return [] }
        var positions: [Int64: Coordinate] = [:]
        for poi in pois where positions[poi.ref.stableID] == nil { positions[poi.ref.stableID] = poi.coordinate }
        return routes.map { route in
            var route = route
            for i in route.waypoints.indices {
                switch route.waypoints[i].place {
                case .point(let c): route.waypoints[i].coordinate = c
                case .poi(let id): route.waypoints[i].coordinate = positions[id]
                }
            }
            return route
        }
    }

    /// The routes of `read` that validation did not keep (matched by row position in `routes.csv`, so a
    /// second route with a duplicate id counts as left out), in file order.
    static func leftOutRoutes(read: [WalkingRoute], packed: [WalkingRoute]) -> [WalkingRoute] {
        let kept = Set(packed.map(\.position))
        return read.filter { !kept.contains($0.position) }
    }
}
