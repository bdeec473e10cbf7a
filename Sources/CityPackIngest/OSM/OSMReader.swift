import CCityPackXML2
import CityPackSupport
#if canImport(Glibc)
import Glibc
#endif
import CityPackDiagnostics
import CityPackModel
import Foundation

/// Streams OSM XML (`.osm`, `.osm.gz`, with libxml2's SAX2 push parser) and OSM PBF into POIs.
///
/// Call ``read(file:displayPath:)`` for each file of a city, then ``finish()`` once. Node coordinates of all
/// files are kept compactly (files may be unsorted, ways may precede their nodes); way geometry, reference
/// checks and duplicate checks run in ``finish()``. Problems in the data are diagnostics in the bag; only
/// unrecoverable I/O throws. The caller stops the build when the bag has errors.
///
/// Elements are keyed by type and id across all files: the same node in two files is an
/// `osm.duplicate_element_id` error and the first occurrence is kept. `<osmChange>` files are accepted
/// (`<delete>` sections are skipped and their ways are not checked for missing nodes). POIs come from nodes, ways
/// and `type=multipolygon` relations (their area is assembled from the member ways, see ``Multipolygon``); other
/// relations are counted and checked, not turned into POIs.
///
/// Security: DTDs and entity declarations are rejected (`osm.entity_declaration`), never expanded or loaded;
/// no network access; inputs are bounded by ``OSMReadOptions``.
///
/// Not thread-safe: use one reader from one task.
public final class OSMReader {
    /// The element sink both adapters feed; owned (the SAX adapter reaches it through a pointer).
    let sink: UnsafeMutablePointer<OSMAssembler>
    /// The bounds, threads and progress callback the reader was made with.
    public let options: OSMReadOptions
    private var buffer: UnsafeMutableRawPointer
    var bytesRead: Int64 = 0
    private(set) var finished = false

    /// Chunk size fed to the parser: 1 MiB (libxml2 rejects single chunks over 10 MB without XML_PARSE_HUGE).
    static let chunkSize = 1 << 20

    /// - Parameters:
    ///   - profile: Decides which elements are POIs and which tags are kept.
    ///   - bag: Receives every diagnostic.
    ///   - options: Bounds and the progress callback.
    public init(profile: any POIProfile, bag: DiagnosticBag, options: OSMReadOptions = .init()) {
        self.sink = UnsafeMutablePointer<OSMAssembler>.allocate(capacity: 1)
        self.sink.initialize(to: OSMAssembler(profile: profile, bag: bag, options: options))
        self.options = options
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        sink.deinitialize(count: 1)
        sink.deallocate()
    }

    /// Reads one OSM XML or PBF file. May be called for several files before ``finish()``.
    /// - Parameters:
    ///   - path: File to open; a name ending in `.gz` is gunzipped while streaming; PBF is recognised by content.
    ///   - displayPath: Path used in diagnostics and POI locations (relative to the city directory).
    /// - Throws: ``OSMReadError`` when the file cannot be opened or read; data problems are diagnostics.
    public func read(file path: String, displayPath: String) throws {
        guard !finished else { throw OSMReadError.alreadyFinished }
        let input = try OSMInputStream(path: path)
        defer { input.close() }
        let fileIndex = sink.pointee.addFile(displayPath: displayPath)
        if input.fileSize > options.maxInputBytes {
            sink.pointee.limitExceeded(
                "file is \(input.fileSize) bytes, more than the limit of \(options.maxInputBytes); not read",
                at: SourceLocation(file: displayPath))
            return
        }
        if let problem = Self.unreadable(path: path, fileSize: input.fileSize) {
            sink.pointee.bag.report(Rules.osmNotOSM, problem, at: SourceLocation(file: displayPath))
            return
        }
        if Self.isPBF(path: path) {
            OSMPBFAdapter.read(
                path: path, file: fileIndex, displayPath: displayPath, fileSize: input.fileSize, into: &sink.pointee)
            bytesRead += input.fileSize
            options.progress?(input.fileSize, input.fileSize)
            return
        }
        try readXML(input, path: path, file: fileIndex, displayPath: displayPath)
    }

    /// Streams an XML file through libxml2's push parser into the SAX adapter.
    private func readXML(_ input: OSMInputStream, path: String, file fileIndex: UInt16, displayPath: String) throws {
        var sax = Self.saxHandler()
        let adapter = UnsafeMutablePointer<OSMSAXAdapter>.allocate(capacity: 1)
        defer { adapter.deallocate() }
        let user = UnsafeMutableRawPointer(adapter)
        guard let ctxt = xmlCreatePushParserCtxt(&sax, user, nil, 0, displayPath) else {
            throw OSMReadError.parserUnavailable(path: path)
        }
        adapter.initialize(to: OSMSAXAdapter(sink: sink, file: fileIndex, displayPath: displayPath, ctxt: ctxt))
        defer {
            adapter.deinitialize(count: 1)
            xmlFreeParserCtxt(ctxt)
        }
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue))
        // Some errors (character-encoding conversion, I/O) are raised without the parser context, so they skip
        // the SAX handler's `serror` and would go to stderr while the file silently reads as empty. Route them
        // to the same adapter for the duration of this file (libxml2 keeps this setting per thread).
        xmlSetStructuredErrorFunc(user) { ctx, error in
            guard let ctx, let error else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.parserError(error)
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }

        var fileBytes: Int64 = 0
        var nextProgress = options.progressInterval
        while true {
            switch try input.read(into: buffer, capacity: Self.chunkSize) {
            case .end:
                xmlParseChunk(ctxt, nil, 0, 1)
            case .corrupt(let message):
                adapter.pointee.compressedStreamCorrupt(message)
            case .bytes(let n):
                fileBytes += Int64(n)
                bytesRead += Int64(n)
                if fileBytes > options.maxInputBytes {
                    adapter.pointee.limitExceeded(
                        "more than \(options.maxInputBytes) bytes of XML after decompression; reading stopped",
                        at: adapter.pointee.currentPosition(), stopParsing: true)
                    break
                }
                xmlParseChunk(ctxt, buffer.assumingMemoryBound(to: CChar.self), Int32(n), 0)
                if !adapter.pointee.stopped && !adapter.pointee.malformed {
                    if let progress = options.progress, input.offset >= nextProgress {
                        nextProgress = input.offset + options.progressInterval
                        progress(input.offset, input.fileSize)
                    }
                    continue
                }
            }
            break
        }
        // Any error libxml2 recorded but no callback delivered still rejects the file.
        if ctxt.pointee.wellFormed == 0 && !adapter.pointee.stopped && !adapter.pointee.malformed {
            adapter.pointee.malformedWithoutMessage(code: Int(ctxt.pointee.errNo))
        }
        options.progress?(input.fileSize, input.fileSize)
    }

    /// Why a file cannot be OSM data at all, from its size and first bytes: empty, or compressed in a format the
    /// reader does not decompress (xz, zstd, zip, 7z). Nil otherwise (gzip and bzip2 are read; see
    /// ``OSMCompression``). `citypack init` asks it too, so the cause is named before any build.
    public static func unreadable(path: String, fileSize: Int64) -> String? {
        if fileSize == 0 { return "the file is empty (0 bytes): no OSM XML or PBF data" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 6)) ?? Data())
        func starts(_ magic: [UInt8]) -> Bool { head.count >= magic.count && Array(head.prefix(magic.count)) == magic }
        let formats: [(String, [UInt8], String)] = [
            ("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz -dk"), ("zstd", [0x28, 0xB5, 0x2F, 0xFD], "zstd -d"),
            ("zip", [0x50, 0x4B, 0x03, 0x04], "unzip"), ("7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "7z x"),
        ]
        for (name, magic, tool) in formats where starts(magic) {
            return "the file is \(name)-compressed, which CityPack does not read (it reads .osm, .osm.gz, .osm.bz2 "
                + "and .osm.pbf): decompress it first (`\(tool)`)"
        }
        return nil
    }

    /// Whether the file starts like OSM PBF: a big-endian BlobHeader length under 64 KiB, then a BlobHeader whose
    /// first field is the type "OSMHeader".
    package static func isPBF(path: String) -> Bool {
        guard let f = fopen(path, "rb") else { return false }
        defer { fclose(f) }
        var bytes = [UInt8](repeating: 0, count: 15)
        guard fread(&bytes, 1, 15, f) == 15 else { return false }
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return length < 64 * 1024 && bytes[4] == 0x0A && bytes[5] == 9 && Array(bytes[6..<15]) == Array("OSMHeader".utf8)
    }

    /// Checks references and duplicates across all files read, places way and multipolygon POIs and returns the
    /// result (see ``OSMFinish`` for each part).
    ///
    /// Call once; the reader cannot be used afterwards.
    public func finish() -> OSMIngestResult {
        finished = true
        var lap = TimeTrace.Lap()
        let finish = OSMFinish(sink.pointee)
        lap.mark("osm finish: duplicates, node index")
        let missingByWay = finish.missingReferences()
        lap.mark("osm finish: way references")
        finish.reportIncompleteWays(missingByWay)
        let wayPOIs = finish.placeWayPOIs(missingByWay)
        lap.mark("osm finish: way POIs")
        let multipolygons = finish.placeMultipolygons()
        lap.mark("osm finish: multipolygons")
        return finish.result(wayPOIs: wayPOIs, multipolygons: multipolygons, bytesRead: bytesRead)
    }

    /// The SAX2 handler: element start/end, structured errors, and traps for every DTD construct.
    private static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localname else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.startElement(localname, Int(nbAttributes), attributes)
        }
        sax.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.endElement()
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.parserError(error)
        }
        sax.internalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.declaration("a DOCTYPE declaration")
        }
        sax.externalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.declaration("an external DTD subset")
        }
        sax.entityDecl = { ctx, _, _, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMSAXAdapter.self).pointee.declaration("an entity declaration")
        }
        return sax
    }
}
