import CCityPackXML2
import CityPackDiagnostics
import CityPackModel
import Foundation

/// A POI candidate from a way; its position is computed once every node is known.
struct PendingWayPOI {
    var wayIndex: Int
    var id: Int64
    var category: String
    var also: [String]
    var name: String?
    var localizedNames: [String: String]
    var tags: [String: String]
    var location: SourceLocation
}

/// A `type=multipolygon` relation that is a POI (or, when every multipolygon is assembled, any one); its area
/// and point are computed once every way and node is known.
struct PendingRelationPOI {
    var id: Int64
    /// nil for a relation the profile does not make a POI (only kept when assembling every multipolygon).
    var category: String?
    var also: [String]
    var name: String?
    var localizedNames: [String: String]
    var tags: [String: String]
    var location: SourceLocation
    /// Way members, in member order.
    var ways: [Int64]
    /// Node members, in member order (the fallback position when no ring closes).
    var nodes: [Int64]
}

/// All mutable state of an ``OSMReader``, reached from libxml2's SAX callbacks through the user-data pointer.
///
/// A struct behind a pointer owned by the reader, rather than a class: callbacks then need neither
/// retain/release nor dynamic exclusivity checks, which cost a third of the parse time on real extracts.
/// Not thread-safe; one instance is used by one reader on one thread.
struct OSMParseState {
    enum Kind { case node, way, relation }

    let profile: any POIProfile
    let bag: DiagnosticBag
    let options: OSMReadOptions

    // Per file.
    var ctxt: xmlParserCtxtPtr?
    var file: UInt16 = 0
    var displayPath = ""
    var displayPaths: [String] = []
    /// Files whose root is `<osmChange>`: their ways may reference nodes that did not change.
    var changeFiles: Set<UInt16> = []
    /// The parser was stopped on purpose (entity declaration, not OSM, limit); later parser errors are noise.
    var stopped = false
    /// An `osm.xml_malformed` was reported for this file.
    var malformed = false
    private var depth = 0
    private var elementDepth = 2
    private var skipDepth = 0
    private var isChange = false

    // Current element.
    private var kind: Kind?
    private var currentID: Int64 = 0
    private var idValid = false
    private var line: Int32 = 0
    private var column: Int32 = 0
    private var latE7: Int32 = 0
    private var lonE7: Int32 = 0
    private var coordinatesValid = false
    private var tagCount = 0
    private var tagLimitReported = false
    private var refCount = 0
    private var refLimitReported = false
    private var refStart = 0
    private var badRefReported = false
    private var keptKeys: [String] = []
    private var keptValues: [String] = []
    private var name: String?
    private var localizedNames: [(String, String)] = []
    /// The current relation's `type` tag and members (only ways and nodes are needed).
    private var relationType: String?
    private var memberWays: [Int64] = []
    private var memberNodes: [Int64] = []

    // Accumulated over all files.
    var keyCache = TagKeyCache()
    var nodes = ElementTable()
    var nodeLats: [Int32] = []
    var nodeLons: [Int32] = []
    var ways = ElementTable()
    var wayRefs: [Int64] = []
    var wayOffsets: [Int] = [0]
    var relations = ElementTable()
    var pendingWays: [PendingWayPOI] = []
    var pendingRelations: [PendingRelationPOI] = []
    /// Elements seen, including invalid and duplicate ones.
    var nodesSeen = 0
    var waysSeen = 0
    var relationsSeen = 0
    var pois: [POI] = []
    var newestTimestamp: [UInt8] = []
    var declaredBounds: BoundingBox?
    var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min

    init(profile: any POIProfile, bag: DiagnosticBag, options: OSMReadOptions) {
        self.profile = profile
        self.bag = bag
        self.options = options
    }

    /// Prepares for a new file.
    mutating func begin(file index: UInt16, displayPath: String, ctxt: xmlParserCtxtPtr) {
        self.ctxt = ctxt
        self.file = index
        self.displayPath = displayPath
        stopped = false
        malformed = false
        depth = 0
        elementDepth = 2
        skipDepth = 0
        isChange = false
        kind = nil
    }

    // MARK: Locations

    /// Line and column where the tag being parsed starts (its `<`), derived from the parser's position.
    ///
    /// libxml2 calls back with its cursor at the end of the start tag; scanning back to `<` gives the start.
    /// Columns count characters, like libxml2's own error columns. Column 0 when the line start is no longer
    /// in the parser's buffer.
    ///
    /// - Parameter hint: A pointer inside the tag (the first attribute value, when libxml2 hands it out of its
    ///   input buffer); scanning back from it is short, and the characters up to the cursor are counted 8 bytes
    ///   at a time.
    func tagStart(hint: UnsafePointer<UInt8>? = nil) -> (line: Int32, column: Int32) {
        guard let ctxt, let input = ctxt.pointee.input else { return (0, 0) }
        let line = input.pointee.line
        let col = input.pointee.col
        guard let cur = input.pointee.cur, let base = input.pointee.base else { return (line, 0) }
        if let hint, hint > base, hint <= cur {
            var p = hint
            while p > base && p.pointee != UInt8(ascii: "<") && p.pointee != UInt8(ascii: "\n") { p -= 1 }
            if p.pointee == UInt8(ascii: "<"), let chars = Self.charactersWithoutNewline(p + 1, cur) {
                return (line, max(col - chars - 1, 1))
            }
        }
        var p = cur
        var chars: Int32 = 0
        var newlines: Int32 = 0
        while p > base {
            p -= 1
            let b = p.pointee
            if b == UInt8(ascii: "<") { break }
            if b == UInt8(ascii: "\n") { newlines += 1 }
            if b & 0xC0 != 0x80 { chars += 1 }
        }
        guard p.pointee == UInt8(ascii: "<") else { return (line, 0) }
        if newlines == 0 { return (line, max(col - chars - 1, 1)) }
        var q = p
        var width: Int32 = 1
        while q > base {
            q -= 1
            if q.pointee == UInt8(ascii: "\n") { return (line - newlines, width) }
            if q.pointee & 0xC0 != 0x80 { width += 1 }
        }
        return (line - newlines, input.pointee.consumed == 0 ? width : 0)
    }

    /// Number of UTF-8 characters in `[start, end)`, or nil when the range holds a newline.
    @inline(__always)
    static func charactersWithoutNewline(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int32? {
        var p = UnsafeRawPointer(start)
        let stop = UnsafeRawPointer(end)
        var continuation = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        while stop - p >= 8 {
            let w = p.loadUnaligned(as: UInt64.self)
            let x = w ^ (ones &* 0x0A)
            if (x &- ones) & ~x & high != 0 { return nil }
            continuation += (w & ~(w << 1) & high).nonzeroBitCount
            p += 8
        }
        while p < stop {
            let b = p.load(as: UInt8.self)
            if b == 0x0A { return nil }
            if b & 0xC0 == 0x80 { continuation += 1 }
            p += 1
        }
        return Int32(end - start - continuation)
    }

    /// Current parser position (for errors found between tags).
    func currentPosition() -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input else { return SourceLocation(file: displayPath) }
        return SourceLocation(file: displayPath, line: Int(input.pointee.line), column: Int(input.pointee.col))
    }

    private func here(_ l: Int32, _ c: Int32) -> SourceLocation {
        SourceLocation(file: displayPath, line: Int(l), column: Int(c))
    }

    private var entity: String {
        switch kind {
        case .node: "n\(currentID)"
        case .way: "w\(currentID)"
        case .relation: "r\(currentID)"
        case nil: ""
        }
    }

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
        bag.report(Rules.osmXMLMalformed, "XML error: \(message ?? "code \(e.code)")", at: location)
    }

    /// The parser marked the document not well-formed without reporting why.
    mutating func malformedWithoutMessage(code: Int) {
        malformed = true
        bag.report(Rules.osmXMLMalformed, "XML error (libxml2 code \(code))", at: currentPosition())
    }

    mutating func declaration(_ what: String) {
        guard !stopped else { return }
        let (l, c) = tagStart()
        bag.report(
            Rules.osmEntityDeclaration,
            "\(what) is not allowed in OSM XML; DTDs and entities are never expanded, the file is rejected",
            at: here(l, c))
        stop()
    }

    mutating func compressedStreamCorrupt(_ zlibMessage: String) {
        guard !malformed else { return }
        malformed = true
        bag.report(
            Rules.osmXMLMalformed, "compressed data is truncated or corrupt (zlib: \(zlibMessage))",
            at: currentPosition())
    }

    mutating func limitExceeded(_ message: String, at location: SourceLocation, stopParsing: Bool) {
        bag.report(Rules.osmLimitExceeded, message, at: location, entity: kind == nil ? nil : entity)
        if stopParsing { stop() }
    }

    typealias Attributes = UnsafeMutablePointer<UnsafePointer<xmlChar>?>

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
        if depth == elementDepth + 1, let kind {
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
            return unexpected(localname, inside: entity)
        }
        if depth == elementDepth {
            if nameIs(localname, "node") { return beginElement(.node, count, attributes) }
            if nameIs(localname, "way") { return beginElement(.way, count, attributes) }
            if nameIs(localname, "relation") { return beginElement(.relation, count, attributes) }
            if nameIs(localname, "bounds") { return bounds(count, attributes) }
            // Known elements without POI content: changesets, Overpass notes and metadata.
            if nameIs(localname, "changeset") || nameIs(localname, "note") || nameIs(localname, "meta")
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
        unexpected(localname, inside: kind == nil ? "<osm>" : entity)
    }

    mutating func endElement() {
        defer { depth -= 1 }
        if skipDepth > 0 {
            if depth == skipDepth { skipDepth = 0 }
            return
        }
        if depth == elementDepth && kind != nil { endOSMElement() }
    }

    // MARK: Elements

    private mutating func unexpected(_ localname: UnsafePointer<xmlChar>, inside parent: String) {
        let (l, c) = tagStart()
        bag.report(
            Rules.osmUnexpectedElement, "unexpected element <\(String(cString: localname))> in \(parent); ignored",
            at: here(l, c))
        skipDepth = depth
    }

    private mutating func root(_ localname: UnsafePointer<xmlChar>, _ count: Int, _ attributes: Attributes?) {
        let (l, c) = tagStart()
        if nameIs(localname, "osmChange") {
            isChange = true
            elementDepth = 3
            changeFiles.insert(file)
        } else if !nameIs(localname, "osm") {
            bag.report(
                Rules.osmNotOSM, "root element is <\(String(cString: localname))>, expected <osm> or <osmChange>",
                at: here(l, c))
            return stop()
        }
        var version: String?
        forEachAttribute(count, attributes) { name, start, end in
            if nameIs(name, "version") { version = string(start, end) }
        }
        if version != "0.6" {
            let what = version.map { "version \"\($0)\" is not supported" } ?? "the version attribute is missing"
            bag.report(Rules.osmUnsupportedVersion, "\(what); only OSM XML 0.6 is read", at: here(l, c))
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
        if box.isValid { declaredBounds = box }
    }

    /// What to do with a tag key (kept, the name, a localised name, or dropped), cached per key (XML and PBF).
    private mutating func keyDecision(_ k: UnsafePointer<UInt8>, _ kn: Int) -> TagKeyDecision {
        let profile = self.profile
        return keyCache.decision(k, kn) { key in TagKeyDecision.decide(key, profile: profile) }
    }

    /// Counts a new element and clears the previous one's state (XML and PBF alike).
    private mutating func resetElement(_ newKind: Kind) {
        kind = newKind
        switch newKind {
        case .node: nodesSeen += 1
        case .way: waysSeen += 1
        case .relation: relationsSeen += 1
        }
        idValid = false
        currentID = 0
        tagCount = 0
        tagLimitReported = false
        refCount = 0
        refLimitReported = false
        badRefReported = false
        if !keptKeys.isEmpty {
            keptKeys.removeAll(keepingCapacity: true)
            keptValues.removeAll(keepingCapacity: true)
        }
        name = nil
        if !localizedNames.isEmpty { localizedNames.removeAll(keepingCapacity: true) }
        relationType = nil
        if !memberWays.isEmpty { memberWays.removeAll(keepingCapacity: true) }
        if !memberNodes.isEmpty { memberNodes.removeAll(keepingCapacity: true) }
        refStart = wayRefs.count
    }

    private mutating func beginElement(_ newKind: Kind, _ count: Int, _ attributes: Attributes?) {
        resetElement(newKind)
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
        (line, column) = tagStart(hint: hint)
        if let (s, e) = stamp { timestamp(s, e) }
        let noun = newKind == .node ? "node" : newKind == .way ? "way" : "relation"
        if let (s, e) = idText, let id = DecimalE7.parseInt64(s, e) {
            currentID = id
            idValid = true
        } else {
            let text = idText.map { "id \"\(string($0.0, $0.1))\" is not a 64-bit integer" } ?? "the id attribute is missing"
            bag.report(Rules.osmInvalidID, "\(noun): \(text); element skipped", at: here(line, column))
        }
        guard newKind == .node else { return }
        coordinatesValid = false
        let lat = coordinate(latText, name: "lat", limit: 900_000_000)
        let lon = coordinate(lonText, name: "lon", limit: 1_800_000_000)
        if let lat, let lon {
            coordinatesValid = true
            latE7 = lat
            lonE7 = lon
            extendBounds(lat, lon)
        }
        if idValid {
            nodes.append(id: currentID, line: line, column: column, file: file)
            nodeLats.append(coordinatesValid ? latE7 : NodeIndex.invalid)
            nodeLons.append(coordinatesValid ? lonE7 : NodeIndex.invalid)
        }
    }

    /// Parses one coordinate attribute, reporting problems; nil when invalid.
    private mutating func coordinate(
        _ text: (UnsafePointer<UInt8>, UnsafePointer<UInt8>)?, name attribute: String, limit: Int64
    ) -> Int32? {
        guard let (s, e) = text else {
            bag.report(
                Rules.osmInvalidCoordinates, "node \(currentID): the \(attribute) attribute is missing",
                at: here(line, column), entity: entity)
            return nil
        }
        guard let (value, excess) = DecimalE7.parse(s, e) else {
            bag.report(
                Rules.osmInvalidCoordinates,
                "node \(currentID): \(attribute) \"\(string(s, e))\" is not a decimal number",
                at: here(line, column), entity: entity)
            return nil
        }
        guard value != DecimalE7.overflow, abs(value) <= limit else {
            bag.report(
                Rules.osmInvalidCoordinates,
                "node \(currentID): \(attribute) \(string(s, e)) is outside ±\(limit / 10_000_000)",
                at: here(line, column), entity: entity)
            return nil
        }
        if excess {
            bag.report(
                Rules.osmExcessPrecision,
                "node \(currentID): \(attribute) \(string(s, e)) has more than 7 decimals; rounded to \(Double(value) / 1e7)",
                at: here(line, column), entity: entity)
        }
        return Int32(value)
    }

    @inline(__always)
    private mutating func timestamp(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        let n = end - start
        let newer = newestTimestamp.withUnsafeBufferPointer { old -> Bool in
            // Byte-wise comparison; timestamps usually differ within the first few bytes.
            let m = min(n, old.count)
            var i = 0
            while i < m {
                if start[i] != old[i] { return start[i] > old[i] }
                i += 1
            }
            return n > old.count
        }
        if newer { newestTimestamp = Array(UnsafeBufferPointer(start: start, count: n)) }
    }

    private mutating func tag(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth  // a <tag> has no children worth reading
        guard countTag() else { return }
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
        guard let (k, kn) = key, let (v, vn) = valueBytes, idValid else { return }
        if kn > options.maxValueBytes || vn > options.maxValueBytes {
            let (l, c) = tagStart()
            limitExceeded(
                "\(entity): a tag key or value is longer than \(options.maxValueBytes) bytes; tag ignored",
                at: here(l, c), stopParsing: false)
            return
        }
        let decision = keyDecision(k, kn)
        if case .drop = decision { return }
        apply(decision, attributeValue(v, vn))
    }

    /// Counts one tag of the current element; false (after reporting once) beyond the limit (XML and PBF).
    private mutating func countTag() -> Bool {
        tagCount += 1
        guard tagCount > options.maxTagsPerElement else { return true }
        if !tagLimitReported {
            tagLimitReported = true
            limitExceeded(
                "\(entity) has more than \(options.maxTagsPerElement) tags; the rest are ignored",
                at: here(line, column), stopParsing: false)
        }
        return false
    }

    /// Records a tag's value as its key's decision says (XML and PBF).
    private mutating func apply(_ decision: TagKeyDecision, _ value: String) {
        switch decision {
        case .drop: return
        case .keep(let key):
            keptKeys.append(key)
            keptValues.append(value)
        case .name:
            name = value
        case .localizedName(let locale):
            localizedNames.append((locale, value))
        case .type(let keep):
            if kind == .relation { relationType = value }
            if let keep {
                keptKeys.append(keep)
                keptValues.append(value)
            }
        }
    }

    /// Widens the data bounds to a valid node position.
    @inline(__always)
    private mutating func extendBounds(_ lat: Int32, _ lon: Int32) {
        if lat < minLat { minLat = lat }
        if lat > maxLat { maxLat = lat }
        if lon < minLon { minLon = lon }
        if lon > maxLon { maxLon = lon }
    }

    /// Counts one `<nd>` or `<member>`; false (after reporting once) when the element has too many.
    private mutating func countRef() -> Bool {
        refCount += 1
        guard refCount > options.maxRefsPerElement else { return true }
        if !refLimitReported {
            refLimitReported = true
            limitExceeded(
                "\(entity) has more than \(options.maxRefsPerElement) \(kind == .way ? "node references" : "members"); "
                    + "the rest are ignored", at: here(line, column), stopParsing: false)
        }
        return false
    }

    private mutating func nd(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth
        guard countRef() else { return }
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
        guard idValid else { return }
        if let ref {
            wayRefs.append(ref)
        } else if !badRefReported {
            badRefReported = true
            let (l, c) = tagStart()
            let what = text.map { "\"\($0)\" is not an integer" } ?? "is missing"
            bag.report(Rules.osmInvalidID, "way \(currentID): <nd> ref \(what)", at: here(l, c), entity: entity)
        }
    }

    private mutating func member(_ count: Int, _ attributes: Attributes?) {
        skipDepth = depth
        guard countRef() else { return }
        var typeOK = false
        var typeText: String?
        var refOK = false
        var refText: String?
        var ref: Int64 = 0
        var isWay = false
        var isNode = false
        forEachAttribute(count, attributes) { name, start, end in
            if nameIs(name, "type") {
                let n = end - start
                isNode = n == 4 && memcmp(start, "node", 4) == 0
                isWay = n == 3 && memcmp(start, "way", 3) == 0
                typeOK = isNode || isWay || (n == 8 && memcmp(start, "relation", 8) == 0)
                if !typeOK { typeText = string(start, end) }
            } else if nameIs(name, "ref") {
                let value = DecimalE7.parseInt64(start, end)
                refOK = value != nil
                ref = value ?? 0
                if !refOK { refText = string(start, end) }
            }
        }
        if typeOK && refOK {
            if isWay { memberWays.append(ref) } else if isNode { memberNodes.append(ref) }
            return
        }
        var problems: [String] = []
        if !typeOK { problems.append(typeText.map { "type \"\($0)\" is not node, way or relation" } ?? "type is missing") }
        if !refOK { problems.append(refText.map { "ref \"\($0)\" is not an integer" } ?? "ref is missing") }
        let (l, c) = tagStart()
        bag.report(
            Rules.osmInvalidRelationMember, "relation \(currentID): member \(problems.joined(separator: ", "))",
            at: here(l, c), entity: entity)
    }

    private mutating func endOSMElement() {
        guard let kind else { return }
        self.kind = nil
        guard idValid else {
            if wayRefs.count > refStart { wayRefs.removeSubrange(refStart...) }
            return
        }
        switch kind {
        case .node:
            guard coordinatesValid, let (category, tags, also) = classify() else { return }
            var poi = POI(
                ref: OSMRef(.node, currentID),
                coordinate: Coordinate(lat: DecimalE7.degrees(latE7), lon: DecimalE7.degrees(lonE7)),
                category: category, name: name, localizedNames: localizedDictionary(), tags: tags,
                location: here(line, column))
            poi.alsoCategories = also
            pois.append(poi)
        case .way:
            let refCount = wayRefs.count - refStart
            ways.append(id: currentID, line: line, column: column, file: file)
            wayOffsets.append(wayRefs.count)
            if refCount < 2 {
                bag.report(
                    Rules.osmWayOneNode, "way \(currentID) has \(refCount) node reference\(refCount == 1 ? "" : "s")",
                    at: here(line, column), entity: "w\(currentID)")
            } else if wayRefs[(refStart + 1)...].allSatisfy({ $0 == wayRefs[refStart] }) {
                // The scan stops at the first other node, i.e. at once for any real way.
                bag.report(
                    Rules.osmWayOneNode, "way \(currentID) references node \(wayRefs[refStart]) \(refCount) times and no other node",
                    at: here(line, column), entity: "w\(currentID)")
            }
            guard refCount > 0, let (category, tags, also) = classify() else { return }
            pendingWays.append(
                PendingWayPOI(
                    wayIndex: ways.count - 1, id: currentID, category: category, also: also, name: name,
                    localizedNames: localizedDictionary(), tags: tags, location: here(line, column)))
        case .relation:
            relations.append(id: currentID, line: line, column: column, file: file)
            // `type=boundary` and other relation kinds are never POIs; a multipolygon with a POI tag is.
            guard relationType == "multipolygon" else { return }
            let classified = classify()
            guard classified != nil || options.assembleEveryMultipolygon else { return }
            pendingRelations.append(
                PendingRelationPOI(
                    id: currentID, category: classified?.0, also: classified?.2 ?? [], name: name,
                    localizedNames: localizedDictionary(),
                    tags: classified?.1 ?? [:], location: here(line, column), ways: memberWays, nodes: memberNodes))
        }
    }

    /// Category, exposed tags and further categories of the current element, if the profile makes it a POI.
    private mutating func classify() -> (String, [String: String], [String])? {
        guard !keptKeys.isEmpty else { return nil }
        var all: [String: String] = [:]
        for (k, v) in zip(keptKeys, keptValues) where all[k] == nil { all[k] = v }
        guard let category = profile.classify(tags: all) else { return nil }
        return (category, all.filter { profile.exposes(tag: $0.key) }, profile.alsoCategories(tags: all, primary: category))
    }

    private mutating func localizedDictionary() -> [String: String] {
        Dictionary(localizedNames, uniquingKeysWith: { first, _ in first })
    }
}

// MARK: XML-independent entry points (PBF)

extension OSMParseState {
    /// Prepares for a file that is not parsed by libxml2 (PBF).
    mutating func beginPBF(file index: UInt16, displayPath: String) {
        ctxt = nil
        file = index
        self.displayPath = displayPath
        stopped = false
        malformed = false
        depth = 0
        skipDepth = 0
        isChange = false
        kind = nil
    }

    /// Starts an element with a known id, resetting the per-element state exactly as the SAX path does.
    private mutating func beginDecoded(_ newKind: Kind, id: Int64, line: Int32, column: Int32) {
        resetElement(newKind)
        currentID = id
        idValid = true
        self.line = line
        self.column = column
    }

    /// One tag of the current element; the same limits and key decisions as `<tag>`.
    private mutating func decodedTag(_ key: String, _ value: String) {
        guard countTag() else { return }
        var key = key
        let kn = key.utf8.count
        if kn > options.maxValueBytes || value.utf8.count > options.maxValueBytes {
            limitExceeded(
                "\(entity): a tag key or value is longer than \(options.maxValueBytes) bytes; tag ignored",
                at: here(line, column), stopParsing: false)
            return
        }
        let decision = key.withUTF8 { buffer in keyDecision(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, kn) }
        apply(decision, value)
    }

    /// A decoded node; coordinates in exact 1e-7 degrees. Most nodes have no tags: they only extend the node
    /// table and the data bounds, without the per-element state a tagged node goes through.
    mutating func node(id: Int64, latE7 lat: Int64, lonE7 lon: Int64, tags: [(String, String)], line: Int32, column: Int32) {
        let latOK = abs(lat) <= 900_000_000, lonOK = abs(lon) <= 1_800_000_000
        if tags.isEmpty && latOK && lonOK {
            nodesSeen += 1
            let la = Int32(lat), lo = Int32(lon)
            extendBounds(la, lo)
            nodes.append(id: id, line: line, column: column, file: file)
            nodeLats.append(la)
            nodeLons.append(lo)
            return
        }
        beginDecoded(.node, id: id, line: line, column: column)
        coordinatesValid = false
        if !latOK {
            bag.report(
                Rules.osmInvalidCoordinates, "node \(currentID): lat \(Double(lat) / 1e7) is outside ±90",
                at: here(line, column), entity: entity)
        }
        if !lonOK {
            bag.report(
                Rules.osmInvalidCoordinates, "node \(currentID): lon \(Double(lon) / 1e7) is outside ±180",
                at: here(line, column), entity: entity)
        }
        if latOK && lonOK {
            coordinatesValid = true
            latE7 = Int32(lat)
            lonE7 = Int32(lon)
            extendBounds(latE7, lonE7)
        }
        nodes.append(id: currentID, line: line, column: column, file: file)
        nodeLats.append(coordinatesValid ? latE7 : NodeIndex.invalid)
        nodeLons.append(coordinatesValid ? lonE7 : NodeIndex.invalid)
        for (k, v) in tags { decodedTag(k, v) }
        endOSMElement()
    }

    /// The nodes of a decoded block, in order (columns 1…n); returns n. Nodes without tags take the short path.
    mutating func nodes(of block: PBFPrimitiveBlock, line: Int32) -> Int32 {
        let count = block.nodeIDs.count
        let (tagged, lats, lons) = (block.nodeTags, block.nodeLatE7, block.nodeLonE7)
        var t = 0
        var i = 0
        while i < count {
            if t < tagged.count && tagged[t].index == i {
                node(id: block.nodeIDs[i], latE7: lats[i], lonE7: lons[i], tags: tagged[t].tags, line: line, column: Int32(i + 1))
                t += 1
                i += 1
                continue
            }
            // A run of untagged nodes up to the next tagged one, appended at once while coordinates are valid.
            let end = t < tagged.count ? tagged[t].index : count
            var j = i
            var (lo0, hi0, lo1, hi1) = (minLat, maxLat, minLon, maxLon)
            while j < end {
                let lat = lats[j], lon = lons[j]
                guard abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else { break }
                let la = Int32(truncatingIfNeeded: lat), lo = Int32(truncatingIfNeeded: lon)
                lo0 = min(lo0, la)
                hi0 = max(hi0, la)
                lo1 = min(lo1, lo)
                hi1 = max(hi1, lo)
                j += 1
            }
            (minLat, maxLat, minLon, maxLon) = (lo0, hi0, lo1, hi1)
            nodeLats.append(contentsOf: lats[i..<j].lazy.map { Int32(truncatingIfNeeded: $0) })
            nodeLons.append(contentsOf: lons[i..<j].lazy.map { Int32(truncatingIfNeeded: $0) })
            block.nodeIDs.withUnsafeBufferPointer { ids in
                nodes.append(ids: UnsafeBufferPointer(rebasing: ids[i..<j]), line: line, firstColumn: Int32(i + 1), file: file)
            }
            nodesSeen += j - i
            if j < end {
                // Invalid coordinates: the full path reports them.
                node(id: block.nodeIDs[j], latE7: lats[j], lonE7: lons[j], tags: [], line: line, column: Int32(j + 1))
                j += 1
            }
            i = j
        }
        return Int32(count)
    }

    /// A decoded way.
    mutating func way(id: Int64, refs: ArraySlice<Int64>, tags: [(String, String)], line: Int32, column: Int32) {
        beginDecoded(.way, id: id, line: line, column: column)
        let allowed = min(refs.count, options.maxRefsPerElement)
        wayRefs.append(contentsOf: refs.prefix(allowed))
        refCount = allowed
        if refs.count > allowed { _ = countRef() }  // reports the limit once
        for (k, v) in tags { decodedTag(k, v) }
        endOSMElement()
    }

    /// A decoded relation (member types and refs are already valid).
    mutating func relation(
        id: Int64, members: [(type: PBFMemberType, ref: Int64, role: String)], tags: [(String, String)], line: Int32,
        column: Int32
    ) {
        beginDecoded(.relation, id: id, line: line, column: column)
        for member in members {
            guard countRef() else { break }
            switch member.type {
            case .way: memberWays.append(member.ref)
            case .node: memberNodes.append(member.ref)
            case .relation: break
            }
        }
        for (k, v) in tags { decodedTag(k, v) }
        endOSMElement()
    }

    /// The newest timestamp of a decoded block (seconds since 1970), kept as ISO 8601 text like the XML path's.
    mutating func decodedTimestamp(_ seconds: Int64) {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil, parts.tm_year + 1900 >= 0, parts.tm_year + 1900 <= 9999 else { return }
        let text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour,
            parts.tm_min, parts.tm_sec)
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { b in timestamp(UnsafePointer(b.baseAddress!), UnsafePointer(b.baseAddress! + b.count)) }
    }

    /// A PBF decoding error: the rest of the file is not read.
    mutating func pbfError(_ error: PBFError) {
        malformed = true
        let (offset, what): (Int64, String) =
            switch error {
            case .io(let e, let o): (o, "read error (errno \(e))")
            case .truncated(let o): (o, "the file ends inside a blob")
            case .blobHeaderTooLarge(let l, let o): (o, "a BlobHeader of \(l) bytes exceeds 64 KiB")
            case .blobTooLarge(let s, let o): (o, "a blob of \(s) bytes exceeds 32 MiB")
            case .missingBlobHeaderField(let f, let o): (o, "the BlobHeader lacks its \(f)")
            case .unsupportedBlobKind(let k, let o): (o, "unsupported blob compression \(k)")
            case .rawSizeMismatch(let d, let o): (o, "the blob does not inflate to its declared raw_size \(d)")
            case .inflateFailed(let m, let o): (o, "zlib: \(m)")
            case .malformed(let e, let o): (o, "malformed protobuf (\(e))")
            case .stringIndexOutOfRange(let i, let c, let o): (o, "string index \(i) beyond the table of \(c)")
            case .inconsistentArrays(let m, let o): (o, "inconsistent arrays: \(m)")
            case .coordinateOverflow(let o): (o, "a coordinate overflows")
            case .invalidMemberType(let t, let o): (o, "relation member type \(t) is not node, way or relation")
            case .unsupportedRequiredFeature(let f, let o): (o, "required feature \(f) is not supported")
            }
        bag.report(
            Rules.osmPBFMalformed, "PBF error in the blob at file offset \(offset): \(what); the rest of the file is not read",
            at: SourceLocation(file: displayPath))
    }
}

// MARK: Byte helpers

/// Compares a NUL-terminated libxml2 name with an ASCII literal, byte by byte.
@inline(__always)
func nameIs(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    let n = literal.utf8CodeUnitCount
    let l = literal.utf8Start
    for i in 0..<n where name[i] != l[i] { return false }
    return name[n] == 0
}

/// Calls `body(localname, valueStart, valueEnd)` for each SAX2 attribute (5 pointers per attribute).
@inline(__always)
func forEachAttribute(
    _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Void
) {
    guard let attributes else { return }
    for i in 0..<count {
        let a = attributes + 5 * i
        guard let name = a[0], let start = a[3], let end = a[4] else { continue }
        body(name, start, end)
    }
}

/// An attribute value as a String. libxml2 (which never substitutes entities here) hands every `&` of a value,
/// whether written `&amp;` or `&#38;`, as the five bytes `&#38;`, so those are turned back into `&`; no other
/// `&` can occur in its output.
func attributeValue(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard memchr(start, Int32(UInt8(ascii: "&")), count) != nil else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var i = 0
    while i < count {
        if bytes[i] == UInt8(ascii: "&"), i + 4 < count, bytes[i + 1] == UInt8(ascii: "#"), bytes[i + 2] == UInt8(ascii: "3"),
            bytes[i + 3] == UInt8(ascii: "8"), bytes[i + 4] == UInt8(ascii: ";")
        {
            out.append(UInt8(ascii: "&"))
            i += 5
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// A String from a byte range (only for values that are kept or reported).
func string(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
}
