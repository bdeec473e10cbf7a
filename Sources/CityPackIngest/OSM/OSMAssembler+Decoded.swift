import CityPackDiagnostics

/// Whole decoded elements (PBF, or any source that holds an element's parts at once), handed to the sink's
/// element steps.
extension OSMAssembler {
    /// A decoded node; coordinates in exact 1e-7 degrees, reported when outside ±90 / ±180.
    mutating func node(id: Int64, latE7 lat: Int64, lonE7 lon: Int64, tags: [(String, String)], line: Int32, column: Int32) {
        begin(.node, id: id, line: line, column: column)
        let latOK = abs(lat) <= 900_000_000, lonOK = abs(lon) <= 1_800_000_000
        if !latOK {
            bag.report(
                Rules.osmInvalidCoordinates, "node \(id): lat \(Double(lat) / 1e7) is outside ±90",
                at: here(line, column), entity: entity)
        }
        if !lonOK {
            bag.report(
                Rules.osmInvalidCoordinates, "node \(id): lon \(Double(lon) / 1e7) is outside ±180",
                at: here(line, column), entity: entity)
        }
        let valid = latOK && lonOK
        position(latE7: valid ? Int32(lat) : nil, lonE7: valid ? Int32(lon) : nil)
        decodedTags(tags)
        end()
    }

    /// A decoded way.
    mutating func way(id: Int64, refs: ArraySlice<Int64>, tags: [(String, String)], line: Int32, column: Int32) {
        begin(.way, id: id, line: line, column: column)
        appendWayRefs(refs)
        decodedTags(tags)
        end()
    }

    /// A decoded relation; member types and refs are already valid.
    mutating func relation<Members: Sequence<(OSMElementKind, Int64)>>(
        id: Int64, members: Members, tags: [(String, String)], line: Int32, column: Int32
    ) {
        begin(.relation, id: id, line: line, column: column)
        for (type, ref) in members {
            guard countRef() else { break }
            member(type, ref: ref)
        }
        decodedTags(tags)
        end()
    }

    /// The tags of the current element, under the same limits and key decisions as tags read one by one.
    private mutating func decodedTags(_ tags: [(String, String)]) {
        for (key, value) in tags {
            guard countTag() else { continue }
            if key.utf8.count > options.maxValueBytes || value.utf8.count > options.maxValueBytes {
                tagTooLong(at: here(line, column))
                continue
            }
            tag(decision(forKey: key), value)
        }
    }
}
