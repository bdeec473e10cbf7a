import CCityPackXML2
import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import CityPackSupport
import Foundation

/// Feeds OSM XML to the element sink from libxml2's SAX2 callbacks, reached through the user-data pointer.
///
/// Knows the XML shape (`<osm>`/`<osmChange>` roots, nesting, attributes as byte ranges, `<tag>`, `<nd>` and
/// `<member>` children) and what only XML text can get wrong (ids, coordinates and refs that are not numbers,
/// unexpected elements, DTDs); everything else is the sink's. A struct behind a pointer owned by the reader for
/// the duration of one file (see ``OSMAssembler`` for why). Not thread-safe.
struct OSMSAXAdapter {
    typealias Attributes = UnsafeMutablePointer<UnsafePointer<xmlChar>?>

    /// Owned by the reader; outlives the adapter.
    let sink: UnsafeMutablePointer<OSMAssembler>
    let options: OSMReadOptions
    let ctxt: xmlParserCtxtPtr?

    /// The parser was stopped on purpose (entity declaration, not OSM, limit); later parser errors are noise.
    private(set) var stopped = false
    /// An `osm.xml_malformed` was reported for this file.
    private(set) var malformed = false
    private var depth = 0
    private var elementDepth = 2
    private var skipDepth = 0
    private var isChange = false
    /// An `<nd>` ref of the current way was reported as invalid.
    private var badRefReported = false
    /// The newest `timestamp` of this file written as `YYYY-MM-DDThh:mm:ssZ` (a valid time; see ``timestamp(_:_:)``).
    private var newestCanonical: [UInt8] = []

    /// An adapter for one file, already registered in the sink as file `index`.
    init(sink: UnsafeMutablePointer<OSMAssembler>, file index: UInt16, displayPath: String, ctxt: xmlParserCtxtPtr?) {
        self.sink = sink
        self.options = sink.pointee.options
        self.ctxt = ctxt
        sink.pointee.beginFile(index, displayPath: displayPath)
    }

    var displayPath: String { sink.pointee.displayPath }

    func here(_ l: Int32, _ c: Int32) -> SourceLocation { sink.pointee.here(l, c) }

    /// Stops the parser; nothing more of this file is read.
    mutating func stop() {
        stopped = true
        if let ctxt { xmlStopParser(ctxt) }
    }

    // MARK: Parser events

    mutating func parserError(_ error: UnsafePointer<xmlError>) {
        let e = error.pointee
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue, !stopped, !malformed else { return }
        malformed = true
        // libxml2 messages may span lines ("…encoding !\nBytes: 0xFF …"): one line keeps every format intact.
        let message = e.message.map { String(cString: $0) }?
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        // Errors raised without the parser context (encoding conversion) carry no line: use the parser's.
        let location = e.line > 0
            ? SourceLocation(file: displayPath, line: Int(e.line), column: Int(e.int2)) : currentPosition()
        sink.pointee.bag.report(Rules.osmXMLMalformed, "XML error: \(message ?? "code \(e.code)")", at: location)
    }

    /// The parser marked the document not well-formed without reporting why.
    mutating func malformedWithoutMessage(code: Int) {
        malformed = true
        sink.pointee.bag.report(Rules.osmXMLMalformed, "XML error (libxml2 code \(code))", at: currentPosition())
    }

    mutating func declaration(_ what: String) {
        guard !stopped else { return }
        let (l, c) = tagStart()
        sink.pointee.bag.report(
            Rules.osmEntityDeclaration,
            "\(what) is not allowed in OSM XML; DTDs and entities are never expanded, the file is rejected",
            at: here(l, c))
        stop()
    }

    mutating func compressedStreamCorrupt(_ decoderMessage: String) {
        guard !malformed else { return }
        malformed = true
        sink.pointee.bag.report(
            Rules.osmXMLMalformed, "compressed data is truncated or corrupt (\(decoderMessage))",
            at: currentPosition())
    }

    mutating func limitExceeded(_ message: String, at location: SourceLocation, stopParsing: Bool) {
        sink.pointee.limitExceeded(message, at: location)
        if stopParsing { stop() }
    }

    mutating func startElement(_ localname: UnsafePointer<xmlChar>, _ count: Int, _ attributes: Attributes?) {
        depth += 1
        if depth > options.maxDepth {
            if !stopped {
                let (l, c) = tagStart()
                limitExceeded(
                    "elements are nested more than \(options.maxDepth) deep; reading stopped", at: here(l, c),
                    stopParsing: true)
            }
            return
        }
        if skipDepth > 0 { return }
        if depth == elementDepth + 1, let kind = sink.pointee.kind {
            switch kind {
            case .node:
                if nameIs(localname, "tag") { return tag(count, attributes) }
            case .way:
                if nameIs(localname, "nd") { return nd(count, attributes) }
                if nameIs(localname, "tag") { return tag(count, attributes) }
            case .relation:
                if nameIs(localname, "member") { return member(count, attributes) }
                if nameIs(localname, "tag") { return tag(count, attributes) }
            }
            return unexpected(localname, inside: sink.pointee.entity)
        }
        if depth == elementDepth {
            if nameIs(localname, "node") { return beginElement(.node, count, attributes) }
            if nameIs(localname, "way") { return beginElement(.way, count, attributes) }
            if nameIs(localname, "relation") { return beginElement(.relation, count, attributes) }
            if nameIs(localname, "bounds") { return bounds(count, attributes) }
            // Known elements without POI content: changesets, Overpass notes and metadata.
            if nameIs(localname, "meta") {
                // Overpass: `<meta osm_base="2024-05-01T12:00:00Z"/>`, the time of the data it answered from.
                forEachAttribute(count, attributes) { name, start, end in
                    if nameIs(name, "osm_base") { timestamp(start, end) }
                }
                skipDepth = depth
                return
            }
            if nameIs(localname, "changeset") || nameIs(localname, "note")
                || nameIs(localname, "remark") || nameIs(localname, "bound")
            {
                skipDepth = depth
                return
            }
            return unexpected(localname, inside: isChange ? "an osmChange action" : "<osm>")
        }
        if depth == 1 { return root(localname, count, attributes) }
        if isChange && depth == 2 {
            if nameIs(localname, "create") || nameIs(localname, "modify") { return }
            if nameIs(localname, "delete") {
                skipDepth = depth
                return
            }
            return unexpected(localname, inside: "<osmChange>")
        }
        unexpected(localname, inside: sink.pointee.kind == nil ? "<osm>" : sink.pointee.entity)
    }

    @inline(__always)
    mutating func endElement() {
        defer { depth -= 1 }
        if skipDepth > 0 {
            if depth == skipDepth { skipDepth = 0 }
            return
        }
        if depth == elementDepth && sink.pointee.kind != nil { sink.pointee.end() }
    }

    // MARK: Elements

    private mutating func unexpected(_ localname: UnsafePointer<xmlChar>, inside parent: String) {
        let (l, c) = tagStart()
        sink.pointee.bag.report(
            Rules.osmUnexpectedElement, "unexpected element <\(String(cString: localname))> in \(parent); ignored",
            at: here(l, c))
        skipDepth = depth
    }

    private mutating func root(_ localname: UnsafePointer<xmlChar>, _ count: Int, _ attributes: Attributes?) {
        let (l, c) = tagStart()
        if nameIs(localname, "osmChange") {
            isChange = true
            elementDepth = 3
            sink.pointee.markChangeFile()
        } else if !nameIs(localname, "osm") {
            sink.pointee.bag.report(
                Rules.osmNotOSM, "root element is <\(String(cString: localname))>, expected <osm> or <osmChange>",
                at: here(l, c))
            return stop()
        }
        var version: String?
        var stamp: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?
        forEachAttribute(count, attributes) { name, start, end in
            if nameIs(name, "version") { version = string(start, end) }
            // `<osm timestamp="…">` (osmium, osmconvert, Overpass): the extract's time, counted like an element's.
            if nameIs(name, "timestamp") { stamp = (start, end) }
        }
        if let (s, e) = stamp { timestamp(s, e) }
        if version != "0.6" {
            let what = version.map { "version \"\($0)\" is not supported" } ?? "the version attribute is missing"
            sink.pointee.bag.report(Rules.osmUnsupportedVersion, "\(what); only OSM XML 0.6 is read", at: here(l, c))
        }
    }

    private mutating func bounds(_ count: Int, _ attributes: Attributes?) {
        var values: [Int64?] = [nil, nil, nil, nil]
        forEachAttribute(count, attributes) { name, start, end in
            let slot: Int? =
                nameIs(name, "minlat") ? 0 : nameIs(name, "minlon") ? 1 : nameIs(name, "maxlat") ? 2 : nameIs(name, "maxlon") ? 3 : nil
            if let slot, let v = DecimalE7.parse(start, end)?.value, v != DecimalE7.overflow { values[slot] = v }
        }
        skipDepth = depth
        guard let minLat = values[0], let minLon = values[1], let maxLat = values[2], let maxLon = values[3] else {
            return
        }
        let box = BoundingBox(
            minLon: Double(minLon) / 1e7, minLat: Double(minLat) / 1e7, maxLon: Double(maxLon) / 1e7,
            maxLat: Double(maxLat) / 1e7)
        if box.isValid { sink.pointee.declare(bounds: box) }
    }

    private mutating func beginElement(_ newKind: OSMElementKind, _ count: Int, _ attributes: Attributes?) {
        var idText: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?
        var latText: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?
        var lonText: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?
        var stamp: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?
        var hint: UnsafePointer<UInt8>?
        if let attributes {
            for i in 0..<count {
                let a = attributes + 5 * i
                guard let name = a[0], let start = a[3], let end = a[4] else { continue }
                if hint == nil { hint = start }
                switch name[0] {
                case UInt8(ascii: "i"): if name[1] == UInt8(ascii: "d") && name[2] == 0 { idText = (start, end) }
                case UInt8(ascii: "l"):
                    if name[1] == UInt8(ascii: "a") && name[2] == UInt8(ascii: "t") && name[3] == 0 {
                        latText = (start, end)
                    } else if name[1] == UInt8(ascii: "o") && name[2] == UInt8(ascii: "n") && name[3] == 0 {
                        lonText = (start, end)
                    }
                case UInt8(ascii: "t"): if nameIs(name, "timestamp") { stamp = (start, end) }
                default: break
                }
            }
        }
        let (line, column) = tagStart(hint: hint)
        if let (s, e) = stamp { timestamp(s, e) }
        let id = idText.flatMap { DecimalE7.parseInt64($0.0, $0.1) }
        sink.pointee.begin(newKind, id: id, line: line, column: column)
        badRefReported = false
        if id == nil {
            let noun = newKind == .node ? "node" : newKind == .way ? "way" : "relation"
            let text = idText.map { "id \"\(string($0.0, $0.1))\" is not a 64-bit integer" } ?? "the id attribute is missing"
            sink.pointee.bag.report(Rules.osmInvalidID, "\(noun): \(text); element skipped", at: here(line, column))
        }
        guard newKind == .node else { return }
        let lat = coordinate(latText, name: "lat", limit: 900_000_000)
        let lon = coordinate(lonText, name: "lon", limit: 1_800_000_000)
        sink.pointee.position(latE7: lat, lonE7: lon)
    }

    /// Parses one coordinate attribute of the current node, reporting problems; nil when invalid.
    private func coordinate(
        _ text: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?, name attribute: String, limit: Int64
    ) -> Int32? {
        if let (start, end) = text, let (value, excess) = DecimalE7.parse(start, end), !excess,
            value != DecimalE7.overflow, abs(value) <= limit
        {
            return Int32(value)
        }
        let id = sink.pointee.currentID
        func report(_ rule: RuleDescription, _ message: String) {
            let s = sink
            s.pointee.bag.report(rule, message, at: s.pointee.here(s.pointee.line, s.pointee.column), entity: s.pointee.entity)
        }
        guard let (start, end) = text else {
            report(Rules.osmInvalidCoordinates, "node \(id): the \(attribute) attribute is missing")
            return nil
        }
        guard let (value, excess) = DecimalE7.parse(start, end) else {
            report(Rules.osmInvalidCoordinates, "node \(id): \(attribute) \"\(string(start, end))\" is not a decimal number")
            return nil
        }
        guard value != DecimalE7.overflow, abs(value) <= limit else {
            report(
                Rules.osmInvalidCoordinates, "node \(id): \(attribute) \(string(start, end)) is outside ±\(limit / 10_000_000)")
            return nil
        }
        if excess {
            report(
                Rules.osmExcessPrecision,
                "node \(id): \(attribute) \(string(start, end)) has more than 7 decimals; rounded to \(Double(value) / 1e7)")
        }
        return Int32(value)
    }

    /// Hands the sink the time of a `timestamp` attribute, unless it cannot be newer than one already handed over.
    ///
    /// In the form `YYYY-MM-DDThh:mm:ssZ` (every OSM writer's) byte order is time order, since only valid times
    /// are taken (``timestampSeconds(_:_:)``): a text in that form not above this file's newest such one is
    /// skipped after a comparison that usually stops within the first few bytes, so the digits of nearly every
    /// element are never read.
    @inline(__always)
    private mutating func timestamp(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        let n = end - start
        let canonical = n == 20 && start[4] == UInt8(ascii: "-") && start[7] == UInt8(ascii: "-")
            && start[10] == UInt8(ascii: "T") && start[13] == UInt8(ascii: ":") && start[16] == UInt8(ascii: ":")
            && start[19] == UInt8(ascii: "Z")
        if canonical {
            let newer = newestCanonical.withUnsafeBufferPointer { old -> Bool in
                guard old.count == 20 else { return true }
                var i = 0
                while i < 20 {
                    if start[i] != old[i] { return start[i] > old[i] }
                    i += 1
                }
                return false
            }
            guard newer else { return }
        }
        guard let seconds = Self.timestampSeconds(start, end) else { return }
        if canonical { newestCanonical = Array(UnsafeBufferPointer(start: start, count: n)) }
        sink.pointee.timestamp(seconds)
    }

    /// Seconds since 1970 of a `timestamp` attribute: its first 14 digits, whatever separates them, read as
    /// YYYYMMDDhhmmss UTC (as ``parseISO8601UTC(_:)`` reads them); nil with fewer digits or when they do not name
    /// a valid time (month 13, February 30, 24:00 or later, second 60).
    static func timestampSeconds(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        var digits = 0
        var date = 0
        var time = 0
        var p = start
        while p < end && digits < 14 {
            let d = p.pointee &- UInt8(ascii: "0")
            p += 1
            guard d < 10 else { continue }
            if digits < 8 { date = date &* 10 &+ Int(d) } else { time = time &* 10 &+ Int(d) }
            digits += 1
        }
        guard digits == 14 else { return nil }
        let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100)
        let (hour, minute, second) = (time / 10_000, time / 100 % 100, time % 100)
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour < 24,
            minute < 60, second < 60
        else { return nil }
        let days = Int64(CivilDate.dayNumber(year: year, month: month, day: day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private mutating func tag(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth  // a <tag> has no children worth reading
        guard sink.pointee.countTag() else { return }
        var key: (UnsafePointer<UInt8>, Int)?
        var valueBytes: (UnsafePointer<UInt8>, Int)?
        if let attributes {
            for i in 0..<count {
                let a = attributes + 5 * i
                guard let name = a[0], let start = a[3], let end = a[4], name[1] == 0 else { continue }
                if name[0] == UInt8(ascii: "k") {
                    key = (start, end - start)
                } else if name[0] == UInt8(ascii: "v") {
                    valueBytes = (start, end - start)
                }
            }
        }
        guard let (k, kn) = key, let (v, vn) = valueBytes, sink.pointee.idValid else { return }
        if kn > options.maxValueBytes || vn > options.maxValueBytes {
            let (l, c) = tagStart()
            sink.pointee.tagTooLong(at: here(l, c))
            return
        }
        let decision = sink.pointee.decision(forKey: k, count: kn)
        if case .drop = decision { return }
        sink.pointee.tag(decision, attributeValue(v, vn))
    }

    private mutating func nd(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth
        guard sink.pointee.countRef() else { return }
        var ref: Int64?
        var text: String?
        if let attributes {
            for i in 0..<count {
                let a = attributes + 5 * i
                guard let name = a[0], let start = a[3], let end = a[4], nameIs(name, "ref") else { continue }
                ref = DecimalE7.parseInt64(start, end)
                if ref == nil { text = string(start, end) }
            }
        }
        guard sink.pointee.idValid else { return }
        if let ref {
            sink.pointee.wayRef(ref)
        } else if !badRefReported {
            badRefReported = true
            let (l, c) = tagStart()
            let what = text.map { "\"\($0)\" is not an integer" } ?? "is missing"
            sink.pointee.bag.report(
                Rules.osmInvalidID, "way \(sink.pointee.currentID): <nd> ref \(what)", at: here(l, c),
                entity: sink.pointee.entity)
        }
    }

    private mutating func member(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth
        guard sink.pointee.countRef() else { return }
        var typeOK = false
        var typeText: String?
        var refOK = false
        var refText: String?
        var ref: Int64 = 0
        var type = OSMElementKind.relation
        forEachAttribute(count, attributes) { name, start, end in
            if nameIs(name, "type") {
                let n = end - start
                let isNode = n == 4 && memcmp(start, "node", 4) == 0
                let isWay = n == 3 && memcmp(start, "way", 3) == 0
                typeOK = isNode || isWay || (n == 8 && memcmp(start, "relation", 8) == 0)
                type = isNode ? .node : isWay ? .way : .relation
                if !typeOK { typeText = string(start, end) }
            } else if nameIs(name, "ref") {
                let value = DecimalE7.parseInt64(start, end)
                refOK = value != nil
                ref = value ?? 0
                if !refOK { refText = string(start, end) }
            }
        }
        if typeOK && refOK { return sink.pointee.member(type, ref: ref) }
        var problems: [String] = []
        if !typeOK { problems.append(typeText.map { "type \"\($0)\" is not node, way or relation" } ?? "type is missing") }
        if !refOK { problems.append(refText.map { "ref \"\($0)\" is not an integer" } ?? "ref is missing") }
        let (l, c) = tagStart()
        sink.pointee.bag.report(
            Rules.osmInvalidRelationMember, "relation \(sink.pointee.currentID): member \(problems.joined(separator: ", "))",
            at: here(l, c), entity: sink.pointee.entity)
    }
}
