extension Rules {
    public static let osmXMLMalformed = RuleDescription(
        "osm.xml_malformed", .osm, .error, "The OSM XML is not well-formed (line and column from the parser)",
        rationale: "A truncated or corrupt extract would give a pack that silently lacks data.")
    public static let osmEntityDeclaration = RuleDescription(
        "osm.entity_declaration", .osm, .error, "The OSM XML declares a DTD or entities, which are never expanded",
        rationale: "Entity expansion enables XXE and billion-laughs attacks; OSM data never needs it.")
    public static let osmNotOSM = RuleDescription(
        "osm.not_osm", .osm, .error, "The XML root element is not <osm> (or <osmChange>)",
        rationale: "Another XML format would be read as an empty city.")
    public static let osmInvalidCoordinates = RuleDescription(
        "osm.invalid_coordinates", .osm, .error,
        "A node's lat/lon is missing, not a number, not finite, or outside ±90/±180",
        rationale: "Apps place POIs on a map and compute distances; a bad coordinate breaks both.")
    public static let osmInvalidID = RuleDescription(
        "osm.invalid_id", .osm, .error, "An element has no id or an id that is not an integer",
        rationale: "POIs are keyed by OSM type and id; without one they cannot be referenced or diffed.")
    public static let osmDuplicateElementID = RuleDescription(
        "osm.duplicate_element_id", .osm, .error, "The same element type and id appear twice",
        rationale: "Two versions of one element make the POI ambiguous; extracts must hold one of each.")
    public static let osmMissingReferencedNode = RuleDescription(
        "osm.missing_referenced_node", .osm, .error, "A way that is a POI references a node that is not in the file",
        rationale: "The way's geometry, and so the POI's position, cannot be computed exactly.")
    public static let osmIncompleteWay = RuleDescription(
        "osm.incomplete_way", .osm, .warning, "A way that is not a POI references a node that is not in the file",
        rationale: "Usually a way cut at the edge of a clipped extract; the pack does not use its geometry, but a "
            + "referentially incomplete file can hide other losses (osmium check-refs reports the same).")
    public static let osmWayOneNode = RuleDescription(
        "osm.way_one_node", .osm, .warning, "A way has fewer than two node references, or one node repeated",
        rationale: "A way needs two nodes to be a line; a single-node way is a mapping error.")
    public static let osmPOIOutsideBBox = RuleDescription(
        "osm.poi_outside_bbox", .osm, .warning, "A POI lies outside the city bounding box and is left out",
        rationale: "Packs hold only what is inside their bounding box, so apps can trust the box.")
    public static let osmPOIMissingName = RuleDescription(
        "osm.poi_missing_name", .osm, .warning, "A POI kept in the pack has no name in any locale",
        rationale: "Users see POIs by name; unnamed ones show only their category.")
    public static let osmDuplicatePOI = RuleDescription(
        "osm.duplicate_poi", .osm, .warning, "Two POIs of the same category sit at the same position",
        rationale: "Usually a mapping duplicate (node and area, or a copy); users would see the place twice.")
    public static let osmExcessPrecision = RuleDescription(
        "osm.excess_precision", .osm, .info, "A coordinate has more than 7 decimals; it is rounded",
        rationale: "OSM stores 7 decimals (about 1 cm); more suggests a converted or synthetic file.")

    public static let osmLimitExceeded = RuleDescription(
        "osm.limit_exceeded", .osm, .error,
        "An input exceeds a configured bound (file size, tags per element, attribute value length)",
        rationale: "Bounds keep a hostile or corrupt file from exhausting memory; raise the limit if the data is genuine.")
    public static let osmUnsupportedVersion = RuleDescription(
        "osm.unsupported_version", .osm, .error, "The <osm> root has no version attribute or a version other than 0.6",
        rationale: "Only OSM API 0.6 XML is understood; older formats have different semantics.")
    public static let osmUnexpectedElement = RuleDescription(
        "osm.unexpected_element", .osm, .error, "An element appears where OSM XML does not define it; it is ignored",
        rationale: "Misplaced elements mean a broken or foreign export; ignoring them silently could hide lost data. Overpass <note>, <meta>, <remark> are accepted.")
    public static let osmInvalidRelationMember = RuleDescription(
        "osm.invalid_relation_member", .osm, .error,
        "A relation member has a missing or unknown type, or a missing or non-integer ref",
        rationale: "A member that cannot be resolved makes the relation meaningless.")

    static let osmRules: [RuleDescription] = [
        osmXMLMalformed, osmEntityDeclaration, osmNotOSM, osmInvalidCoordinates, osmInvalidID,
        osmDuplicateElementID, osmMissingReferencedNode, osmIncompleteWay, osmWayOneNode, osmPOIOutsideBBox, osmPOIMissingName,
        osmDuplicatePOI, osmExcessPrecision, osmLimitExceeded, osmUnsupportedVersion, osmUnexpectedElement,
        osmInvalidRelationMember,
    ]
}
