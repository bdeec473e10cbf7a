import CityPackDiagnostics

private typealias Base = RuleExampleCity

// The rules `OSMReader` reports while parsing OSM XML and resolving ways. The POI rules (`osm.poi_outside_bbox`,
// `osm.poi_missing_name`, `osm.duplicate_poi`) judge the model and live in CityPackValidate's Rules/POI.
// `RuleCatalog` lists them all.

extension Rules {
    public static let osmXMLMalformed = RuleDescription(
        "osm.xml_malformed", .osm, .error, "The OSM XML is not well-formed (line and column from the parser)",
        title: "XML not well-formed",
        rationale: "A truncated or corrupt extract would give a pack that silently lacks data.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "  </node>\n  <node id=\"2\"", "  </nod>\n  <node id=\"2\""),
            passing: Base.osm))
    public static let osmEntityDeclaration = RuleDescription(
        "osm.entity_declaration", .osm, .error, "The OSM XML declares a DTD or entities, which are never expanded",
        title: "DTD or entity declaration",
        rationale: "Entity expansion enables XXE and billion-laughs attacks; OSM data never needs it.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(
                Base.osm, "<osm version=", "<!DOCTYPE osm [ <!ENTITY port \"Café du Port\"> ]>\n<osm version="),
            passing: Base.osm))
    public static let osmNotOSM = RuleDescription(
        "osm.not_osm", .osm, .error, "The XML root element is not <osm> (or <osmChange>)",
        title: "Not an OSM document",
        rationale: "Another XML format would be read as an empty city.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.edit(Base.osm, "<osm version=", "<osmdata version="), "</osm>", "</osmdata>"),
            passing: Base.osm))
    public static let osmInvalidCoordinates = RuleDescription(
        "osm.invalid_coordinates", .osm, .error,
        "A node's lat/lon is missing, not a number, not finite, or outside ±90/±180",
        title: "Invalid coordinates",
        rationale: "Apps place POIs on a map and compute distances; a bad coordinate breaks both.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "lat=\"43.7300000\" lon=\"7.4100000\"", "lat=\"43,7300000\" lon=\"7,4100000\""),
            passing: Base.osm))
    public static let osmInvalidID = RuleDescription(
        "osm.invalid_id", .osm, .error, "An element has no id or an id that is not an integer",
        title: "Invalid element ID",
        rationale: "POIs are keyed by OSM type and id; without one they cannot be referenced or diffed.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "<node id=\"2\"", "<node id=\"n2\""),
            passing: Base.osm))
    public static let osmDuplicateElementID = RuleDescription(
        "osm.duplicate_element_id", .osm, .error, "The same element type and id appear twice",
        title: "Duplicate element ID",
        rationale: "Two versions of one element make the POI ambiguous; extracts must hold one of each.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "<node id=\"2\"", "<node id=\"1\""),
            passing: Base.osm))
    public static let osmMissingReferencedNode = RuleDescription(
        "osm.missing_referenced_node", .osm, .warning,
        "A way that is a POI references nodes that are not in the file; it is placed on the nodes present, or left out when none are",
        title: "Missing node of a POI way",
        rationale: "Every extract cut at its edge (bbox cuts, `osmium extract --strategy simple`, Overpass) has such ways; "
            + "the POI's position is then computed from the nodes that are present and may be off. Make it an error in "
            + "the city file (`rules: { osm.missing_referenced_node: error }`) to insist on complete ways.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "<nd ref=\"7\"/>", "<nd ref=\"8\"/>"),
            passing: Base.osm))
    public static let osmIncompleteWay = RuleDescription(
        "osm.incomplete_way", .osm, .warning,
        "Ways that are not POIs reference nodes that are not in the file (one warning per file, at the first such way)",
        title: "Incomplete way",
        rationale: "Usually ways cut at the edge of a clipped extract; the pack does not use their geometry, but a "
            + "referentially incomplete file can hide other losses (osmium check-refs reports the same). A clipped "
            + "city has thousands, so they make one warning per file: the count, the first way, the next few as notes.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "</osm>", footway(to: 99) + "</osm>"),
            passing: Base.edit(Base.osm, "</osm>", footway(to: 5) + "</osm>")))
    public static let osmMultipolygonInvalid = RuleDescription(
        "osm.multipolygon_invalid", .osm, .warning,
        "A multipolygon POI relation's rings do not close, cross or overlap, or lack members; it is placed on the rings that close, on a member node, or left out",
        title: "Broken multipolygon",
        rationale: "Hospitals, universities, parks and large stations are often mapped as multipolygon relations; a "
            + "broken area (a clipped extract, a ring left open, rings that cross) gives no reliable point inside it.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "</osm>", footway(to: 5) + hospital(outer: 11) + "</osm>"),
            passing: Base.edit(Base.osm, "</osm>", hospital(outer: 10) + "</osm>")))
    public static let osmWayOneNode = RuleDescription(
        "osm.way_one_node", .osm, .warning, "A way has fewer than two node references, or one node repeated",
        title: "Way with one node",
        rationale: "A way needs two nodes to be a line; a single-node way is a mapping error.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "</osm>", footway(to: nil) + "</osm>"),
            passing: Base.edit(Base.osm, "</osm>", footway(to: 5) + "</osm>")))
    public static let osmExcessPrecision = RuleDescription(
        "osm.excess_precision", .osm, .info, "A coordinate has more than 7 decimals; it is rounded",
        title: "Excess coordinate precision",
        rationale: "OSM stores 7 decimals (about 1 cm); more suggests a converted or synthetic file.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "lat=\"43.7300000\"", "lat=\"43.730000012\""),
            passing: Base.osm))
    public static let osmLimitExceeded = RuleDescription(
        "osm.limit_exceeded", .osm, .error,
        "An input exceeds a configured bound (file size, tags per element, attribute value length)",
        title: "Input limit exceeded",
        rationale: "Bounds keep a hostile or corrupt file from exhausting memory; raise the limit if the data is genuine.",
        exampleWaiver: "The default bounds (4 GiB per file, 5,000 tags per element, 64 KiB per value) are too large for a readable example; OSMReaderDiagnosticsTests.limitsAreDiagnostics lowers them and checks each.")
    public static let osmPBFMalformed = RuleDescription(
        "osm.pbf_malformed", .osm, .error,
        "The OSM PBF file is truncated, corrupt or uses an unsupported compression; the message names the blob's file offset",
        title: "PBF file malformed",
        rationale: "A truncated or corrupt extract would give a pack that silently lacks data.",
        exampleWaiver: "A PBF file is binary and cannot be shown as a readable example; PBFReaderTests.truncatedPBFIsDiagnostic truncates a real extract and checks the diagnostic.")
    public static let osmBBoxOutsideSource = RuleDescription(
        "osm.bbox_outside_source", .osm, .error,
        "The city's bounding box does not overlap the data of an OSM PBF file it names",
        title: "Bounding box outside the source",
        rationale: "A city cut from a country or continent file with a mistyped box would be built empty from nothing.",
        exampleWaiver: "A PBF file is binary and cannot be shown as a readable example; FleetTests.bboxOutsideSourceIsLocatedError builds a city whose box lies beside a real extract.")
    public static let osmUnsupportedVersion = RuleDescription(
        "osm.unsupported_version", .osm, .error, "The <osm> root has no version attribute or a version other than 0.6",
        title: "Unsupported OSM version",
        rationale: "Only OSM API 0.6 XML is understood; older formats have different semantics.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "<osm version=\"0.6\"", "<osm version=\"0.5\""),
            passing: Base.osm))
    public static let osmUnexpectedElement = RuleDescription(
        "osm.unexpected_element", .osm, .error, "An element appears where OSM XML does not define it; it is ignored",
        title: "Unexpected element",
        rationale: "Misplaced elements mean a broken or foreign export; ignoring them silently could hide lost data. Overpass <note>, <meta>, <remark> are accepted.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "    <tag k=\"amenity\" v=\"toilets\"/>\n", "    <tag k=\"amenity\" v=\"toilets\"/>\n    <nd ref=\"1\"/>\n"),
            passing: Base.osm))
    public static let osmInvalidRelationMember = RuleDescription(
        "osm.invalid_relation_member", .osm, .error,
        "A relation member has a missing or unknown type, or a missing or non-integer ref",
        title: "Invalid relation member",
        rationale: "A member that cannot be resolved makes the relation meaningless.",
        example: RuleExample(
            file: "map.osm",
            triggering: Base.edit(Base.osm, "</osm>", route(memberType: "stop") + "</osm>"),
            passing: Base.edit(Base.osm, "</osm>", route(memberType: "node") + "</osm>")))

    /// A footway (not a POI) from node 4 to `to`, or with node 4 only when `to` is nil.
    private static func footway(to: Int?) -> String {
        "  <way id=\"11\">\n    <nd ref=\"4\"/>\n" + (to.map { "    <nd ref=\"\($0)\"/>\n" } ?? "")
            + "    <tag k=\"highway\" v=\"footway\"/>\n  </way>\n"
    }

    /// A multipolygon hospital whose outer ring is way `outer`.
    private static func hospital(outer: Int) -> String {
        "  <relation id=\"21\">\n    <member type=\"way\" ref=\"\(outer)\" role=\"outer\"/>\n"
            + "    <tag k=\"type\" v=\"multipolygon\"/>\n    <tag k=\"amenity\" v=\"hospital\"/>\n"
            + "    <tag k=\"name\" v=\"Centre Hospitalier\"/>\n  </relation>\n"
    }

    /// A bus route relation whose first member has type `memberType`.
    private static func route(memberType: String) -> String {
        "  <relation id=\"20\">\n    <member type=\"\(memberType)\" ref=\"1\" role=\"stop\"/>\n"
            + "    <member type=\"way\" ref=\"10\" role=\"\"/>\n    <tag k=\"type\" v=\"route\"/>\n"
            + "    <tag k=\"route\" v=\"bus\"/>\n  </relation>\n"
    }
}
