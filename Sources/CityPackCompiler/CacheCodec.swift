import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import Foundation

/// The build cache's binary encoding: little-endian fixed-width integers, lengths as UInt32, strings as UTF-8
/// bytes after their length, arrays of numbers copied as one block (a GTFS feed's ~10^5–10^6 stop_times rows are
/// eight such blocks). Written by hand because it is a hot path (the model types are not `Codable`, and a keyed
/// container per row of 10^5–10^6 rows is what the block copies avoid; `JSONEncoder` was not measured): Milan's
/// feed, a 9.7 MB entry, loads with its checks in 60–125 ms (docs/ARCHITECTURE.md, "Build cache"). Only
/// ``StageCache`` reads it, after the
/// payload's SHA-256 was checked; a malformed payload still never traps: every read is bounds-checked and throws.
struct CacheWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func int(_ v: Int) { fixed(Int64(v)) }
    mutating func count(_ v: Int) { fixed(UInt32(truncatingIfNeeded: v)) }
    mutating func double(_ v: Double) { fixed(v.bitPattern) }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
    mutating func optional<T>(_ v: T?, _ write: (inout CacheWriter, T) -> Void) {
        if let v {
            u8(1)
            write(&self, v)
        } else {
            u8(0)
        }
    }
    mutating func string(_ s: String?) { optional(s) { $0.string($1) } }
    mutating func array<T>(_ values: [T], _ write: (inout CacheWriter, T) -> Void) {
        count(values.count)
        for v in values { write(&self, v) }
    }
    /// Numbers of a fixed size as one block (the host is little-endian: x86-64 and arm64).
    mutating func block<T: BitwiseCopyable>(_ values: [T]) {
        count(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
    mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }
    mutating func dictionary(_ d: [String: String]) {
        count(d.count)
        for (k, v) in d.sorted(by: { $0.key < $1.key }) {
            string(k)
            string(v)
        }
    }
    mutating func bytes(_ data: [UInt8]) {
        count(data.count)
        bytes.append(contentsOf: data)
    }
}

/// Reads what ``CacheWriter`` wrote; every read checks the bounds and throws ``Malformed`` past the end.
struct CacheReader {
    struct Malformed: Error, CustomStringConvertible {
        var description: String { "malformed cache payload" }
    }

    private let base: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    var atEnd: Bool { offset == base.count }

    private mutating func take(_ n: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= base.count - offset else { throw Malformed() }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: base[offset..<offset + n])
    }

    mutating func fixed<T: FixedWidthInteger>(_: T.Type = T.self) throws(Malformed) -> T {
        let raw = try take(MemoryLayout<T>.size)
        var v = T.zero
        withUnsafeMutableBytes(of: &v) { $0.copyMemory(from: raw) }
        return T(littleEndian: v)
    }
    mutating func u8() throws(Malformed) -> UInt8 { try take(1)[0] }
    mutating func bool() throws(Malformed) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }
    mutating func int() throws(Malformed) -> Int { Int(try fixed(Int64.self)) }
    mutating func count() throws(Malformed) -> Int {
        let n = Int(try fixed(UInt32.self))
        // Every element takes at least one byte: a count beyond the rest is malformed (no huge reservations).
        guard n <= base.count - offset else { throw Malformed() }
        return n
    }
    mutating func double() throws(Malformed) -> Double { Double(bitPattern: try fixed(UInt64.self)) }
    mutating func string() throws(Malformed) -> String {
        let n = try count()
        return String(decoding: try take(n), as: UTF8.self)
    }
    mutating func optional<T>(_ read: (inout CacheReader) throws(Malformed) -> T) throws(Malformed) -> T? {
        switch try u8() {
        case 0: return nil
        case 1: return try read(&self)
        default: throw Malformed()
        }
    }
    mutating func optionalString() throws(Malformed) -> String? { try optional { r throws(Malformed) in try r.string() } }
    mutating func array<T>(_ read: (inout CacheReader) throws(Malformed) -> T) throws(Malformed) -> [T] {
        let n = try count()
        var out: [T] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try read(&self)) }
        return out
    }
    mutating func block<T: BitwiseCopyable>(_: T.Type = T.self) throws(Malformed) -> [T] {
        let n = Int(try fixed(UInt32.self))
        let size = MemoryLayout<T>.stride
        guard n <= (base.count - offset) / max(size, 1) else { throw Malformed() }
        let raw = try take(n * size)
        return [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = n
        }
    }
    mutating func strings() throws(Malformed) -> [String] { try array { r throws(Malformed) in try r.string() } }
    mutating func dictionary() throws(Malformed) -> [String: String] {
        let n = try count()
        var d: [String: String] = [:]
        d.reserveCapacity(n)
        for _ in 0..<n {
            let k = try string()
            d[k] = try string()
        }
        return d
    }
    mutating func bytes() throws(Malformed) -> [UInt8] {
        let n = try count()
        return Array(try take(n))
    }
}

// MARK: diagnostics

extension CacheWriter {
    mutating func location(_ l: SourceLocation) {
        string(l.file)
        int(l.line)
        int(l.column)
        string(l.field)
    }
    mutating func diagnostic(_ d: Diagnostic) {
        u8(UInt8(Severity.allCases.firstIndex(of: d.severity)!))
        string(d.code)
        string(d.message)
        optional(d.location) { $0.location($1) }
        string(d.entity)
        array(d.notes) { w, note in
            w.string(note.message)
            w.optional(note.location) { $0.location($1) }
        }
    }
    mutating func events(_ events: [DiagnosticBag.Event]) {
        array(events) { w, event in
            switch event {
            case .report(let d):
                w.u8(0)
                w.diagnostic(d)
            case .relocate(let moved):
                w.u8(1)
                w.count(moved.count)
                for (from, to) in moved.sorted(by: { $0.key < $1.key }) {
                    w.location(from)
                    w.location(to)
                }
            }
        }
    }
    mutating func counts(_ counts: [StageCount: Int]) {
        count(counts.count)
        for (k, v) in counts.sorted(by: { $0.key < $1.key }) {
            string(k.rawValue)
            int(v)
        }
    }
}

extension CacheReader {
    mutating func location() throws(Malformed) -> SourceLocation {
        SourceLocation(file: try string(), line: try int(), column: try int(), field: try optionalString())
    }
    mutating func diagnostic() throws(Malformed) -> Diagnostic {
        let s = Int(try u8())
        guard s < Severity.allCases.count else { throw Malformed() }
        let severity = Severity.allCases[s]
        let code = try string()
        let message = try string()
        let location = try optional { r throws(Malformed) in try r.location() }
        let entity = try optionalString()
        let notes = try array { r throws(Malformed) in
            Diagnostic.Note(try r.string(), at: try r.optional { r throws(Malformed) in try r.location() })
        }
        return Diagnostic(severity, code: code, message: message, at: location, entity: entity, notes: notes)
    }
    mutating func events() throws(Malformed) -> [DiagnosticBag.Event] {
        try array { r throws(Malformed) -> DiagnosticBag.Event in
            switch try r.u8() {
            case 0: return .report(try r.diagnostic())
            case 1:
                let n = try r.count()
                var moved: [SourceLocation: SourceLocation] = [:]
                for _ in 0..<n {
                    let from = try r.location()
                    moved[from] = try r.location()
                }
                return .relocate(moved)
            default: throw Malformed()
            }
        }
    }
    mutating func counts() throws(Malformed) -> [StageCount: Int] {
        let n = try count()
        var out: [StageCount: Int] = [:]
        for _ in 0..<n {
            guard let k = StageCount(rawValue: try string()) else { throw Malformed() }
            out[k] = try int()
        }
        return out
    }
}

// MARK: OSM

extension CacheWriter {
    mutating func coordinate(_ c: Coordinate) {
        double(c.lat)
        double(c.lon)
    }
    mutating func box(_ b: BoundingBox) {
        for v in b.array { double(v) }
    }
    mutating func poi(_ p: POI) {
        u8(p.ref.kind.rawValue)
        fixed(p.ref.id)
        coordinate(p.coordinate)
        string(p.category)
        strings(p.alsoCategories)
        string(p.name)
        dictionary(p.localizedNames)
        dictionary(p.tags)
        location(p.location)
    }
    mutating func osm(_ r: OSMIngestResult) {
        array(r.pois) { $0.poi($1) }
        int(r.nodes)
        int(r.ways)
        int(r.relations)
        fixed(r.bytesRead)
        string(r.newestTimestamp)
        optional(r.declaredBounds) { $0.box($1) }
        optional(r.dataBounds) { $0.box($1) }
        int(r.multipolygonPOIs)
    }
}

extension CacheReader {
    mutating func coordinate() throws(Malformed) -> Coordinate { Coordinate(lat: try double(), lon: try double()) }
    mutating func box() throws(Malformed) -> BoundingBox {
        BoundingBox(minLon: try double(), minLat: try double(), maxLon: try double(), maxLat: try double())
    }
    mutating func poi() throws(Malformed) -> POI {
        guard let kind = OSMRef.Kind(rawValue: try u8()) else { throw Malformed() }
        let ref = OSMRef(kind, try fixed(Int64.self))
        let coordinate = try coordinate()
        let category = try string()
        let also = try strings()
        let name = try optionalString()
        let names = try dictionary()
        let tags = try dictionary()
        var poi = POI(ref: ref, coordinate: coordinate, category: category, name: name, localizedNames: names, tags: tags, location: try location())
        poi.alsoCategories = also
        return poi
    }
    mutating func osm() throws(Malformed) -> OSMIngestResult {
        var r = OSMIngestResult()
        r.pois = try array { r throws(Malformed) in try r.poi() }
        r.nodes = try int()
        r.ways = try int()
        r.relations = try int()
        r.bytesRead = try fixed(Int64.self)
        r.newestTimestamp = try optionalString()
        r.declaredBounds = try optional { r throws(Malformed) in try r.box() }
        r.dataBounds = try optional { r throws(Malformed) in try r.box() }
        r.multipolygonPOIs = try int()
        return r
    }
}
