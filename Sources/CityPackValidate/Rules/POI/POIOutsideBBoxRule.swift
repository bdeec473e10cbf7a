import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let osmPOIOutsideBBox = RuleDescription(
        "osm.poi_outside_bbox", .osm, .warning, "A POI lies outside the city bounding box and is left out",
        title: "POI outside the bounding box",
        rationale: "Packs hold only what is inside their bounding box, so apps can trust the box.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "lon=\"7.4200000\"", "lon=\"7.4800000\""),
            passing: Base.osm))
}

/// Checks that every POI lies inside the city bounding box; those outside are left out of the pack, so apps
/// can trust that everything in a pack is inside its box.
package struct POIOutsideBBoxRule: POIRule {
    package static let rule = Rules.osmPOIOutsideBBox
    package init() {}

    package func check(_ pois: [POI], context: POIRuleContext, bag: DiagnosticBag) -> Set<OSMRef> {
        var dropped: Set<OSMRef> = []
        for poi in pois where !context.city.bbox.contains(poi.coordinate) {
            dropped.insert(poi.ref)
            bag.report(Self.rule, .outside(poi, context.city.bbox), at: poi.location, entity: poi.ref.description)
        }
        return dropped
    }
}

extension String {
    fileprivate static func outside(_ poi: POI, _ box: BoundingBox) -> String {
        "\(poi.category) \(poi.ref) at \(poi.coordinate.lat),\(poi.coordinate.lon) is outside the city bbox "
            + "[\(box.minLon), \(box.minLat), \(box.maxLon), \(box.maxLat)]; it is left out of the pack"
    }
}
