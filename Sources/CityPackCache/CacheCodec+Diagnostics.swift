import CityPackDiagnostics

// The build cache's layout of diagnostics and stage counts: each type's encode beside its decode (CacheCodec.swift
// has the primitives).

extension SourceLocation: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(file)
        w.int(line)
        w.int(column)
        w.string(field)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(file: try r.string(), line: try r.int(), column: try r.int(), field: try r.optionalString())
    }
}

extension Diagnostic.Note: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(message)
        w.optional(location) { $0.value($1) }
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(try r.string(), at: try r.optional { r throws(CacheReader.Malformed) in try r.value(SourceLocation.self) })
    }
}

extension Diagnostic: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.u8(UInt8(Severity.allCases.firstIndex(of: severity)!))
        w.string(code)
        w.string(message)
        w.optional(location) { $0.value($1) }
        w.string(entity)
        w.array(notes) { $0.value($1) }
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        let s = Int(try r.u8())
        guard s < Severity.allCases.count else { throw CacheReader.Malformed() }
        let severity = Severity.allCases[s]
        let code = try r.string()
        let message = try r.string()
        let location = try r.optional { r throws(CacheReader.Malformed) in try r.value(SourceLocation.self) }
        let entity = try r.optionalString()
        let notes = try r.array { r throws(CacheReader.Malformed) in try r.value(Diagnostic.Note.self) }
        self.init(severity, code: code, message: message, at: location, entity: entity, notes: notes)
    }
}

extension DiagnosticBag.Event: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        switch self {
        case .report(let d):
            w.u8(0)
            w.value(d)
        case .relocate(let moved):
            w.u8(1)
            w.count(moved.count)
            for (from, to) in moved.sorted(by: { $0.key < $1.key }) {
                w.value(from)
                w.value(to)
            }
        }
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        switch try r.u8() {
        case 0: self = .report(try r.value())
        case 1:
            let n = try r.count()
            var moved: [SourceLocation: SourceLocation] = [:]
            for _ in 0..<n {
                let from: SourceLocation = try r.value()
                moved[from] = try r.value()
            }
            self = .relocate(moved)
        default: throw CacheReader.Malformed()
        }
    }
}

extension CacheWriter {
    /// A stage's diagnostic events (``DiagnosticBag/Event``), in order.
    package mutating func events(_ events: [DiagnosticBag.Event]) { array(events) { $0.value($1) } }
}

extension CacheReader {
    /// What ``CacheWriter/events(_:)`` wrote.
    package mutating func events() throws(Malformed) -> [DiagnosticBag.Event] {
        try array { r throws(Malformed) in try r.value(DiagnosticBag.Event.self) }
    }
}
