import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

extension OSMFinish {
    /// Assembles each pending multipolygon relation and places its POI: inside its rings, else on a member node,
    /// else nowhere; any problem is an `osm.multipolygon_invalid` warning on the relation.
    func placeMultipolygons() -> (pois: [POI], reports: [MultipolygonReport]) {
        let s = elements
        guard !s.pendingRelations.isEmpty else { return ([], []) }
        // Member ways by id (first occurrence), looked up once for all relations.
        let wanted = Set(s.pendingRelations.flatMap(\.ways))
        var wayIndex: [Int64: Int] = [:]
        for (i, id) in s.ways.ids.enumerated() where wanted.contains(id) && wayIndex[id] == nil { wayIndex[id] = i }
        let index = self.index
        func position(_ ref: Int64) -> (lat: Double, lon: Double)? {
            index.index(of: ref).flatMap { index.coordinate(at: $0) }
        }
        var pois: [POI] = []
        var reports: [MultipolygonReport] = []
        for relation in s.pendingRelations {
            var members: [Multipolygon.MemberWay] = []
            var missing: [Int64] = []
            for id in relation.ways {
                guard let w = wayIndex[id] else {
                    missing.append(id)
                    continue
                }
                let refs = Array(s.wayRefs[s.wayOffsets[w]..<s.wayOffsets[w + 1]])
                members.append(Multipolygon.MemberWay(id: id, refs: refs, points: refs.map(position)))
            }
            let outcome = Multipolygon.assemble(ways: members, missingWays: missing)
            var point = outcome.point
            var placement = point.map { "the POI is placed inside its \(outcome.rings.count) closed ring\(outcome.rings.count == 1 ? "" : "s"), at \($0.lat), \($0.lon)" }
            if point == nil {
                if let (node, p) = relation.nodes.lazy.compactMap({ n in position(n).map { (n, $0) } }).first {
                    point = Coordinate(lat: p.lat, lon: p.lon)
                    placement = "no ring closes, so the POI is placed on its member node \(node)"
                } else {
                    placement = "no ring closes and no member node is present, so the POI is left out of the pack"
                }
            }
            if relation.category != nil, !outcome.problems.isEmpty || outcome.point == nil {
                let problems = outcome.problems.isEmpty ? ["it has no closed ring"] : outcome.problems
                s.bag.report(
                    Rules.osmMultipolygonInvalid,
                    "multipolygon relation \(relation.id): \(problems.joined(separator: "; ")); \(placement ?? "")",
                    at: relation.location, entity: "r\(relation.id)")
            }
            reports.append(
                MultipolygonReport(
                    id: relation.id, isPOI: relation.category != nil,
                    rings: outcome.rings.map { $0.map { Coordinate(lat: $0.lat, lon: $0.lon) } }, point: point,
                    pointFromRings: outcome.point != nil, problems: outcome.problems))
            guard let category = relation.category, let point else { continue }
            var poi = POI(
                ref: OSMRef(.relation, relation.id), coordinate: point, category: category, name: relation.name,
                localizedNames: relation.localizedNames, tags: relation.tags, location: relation.location)
            poi.alsoCategories = relation.also
            pois.append(poi)
        }
        return (pois, reports)
    }
}
