import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// Issue 7, point 3: hostile and broken inputs end in a located error diagnostic, never a crash, an expansion
/// or a fetch. Big inputs are generated here, never committed. (The CLI-level cases — exit 1 — are in
/// CityPackCLITests/HostileCLITests.)
@Suite struct HostileOSMTests {
    /// `line:col code` of every error.
    static func errors(_ bag: DiagnosticBag) -> [String] {
        bag.diagnostics.filter { $0.severity == .error }.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.code)" }
    }

    @Test func externalEntityIsNeitherFetchedNorExpanded() throws {
        // A SYSTEM entity naming a local file and one naming a URL; the reader stops at the DOCTYPE.
        let marked = MarkedXML(header + """
            1️⃣<!DOCTYPE osm [
              <!ENTITY secret SYSTEM "file:///etc/hostname">
              <!ENTITY remote SYSTEM "http://example.invalid/x">
            ]>
            <osm version="0.6"><node id="1" lat="1" lon="2"><tag k="amenity" v="cafe"/><tag k="name" v="&secret;&remote;"/></node></osm>
            """)
        let (result, bag) = try OSMTest.read(marked.text)
        #expect(Self.errors(bag) == ["\(marked["1️⃣"].line):\(marked["1️⃣"].column) osm.entity_declaration"])
        #expect(result.pois.isEmpty, "nothing after the DOCTYPE is read")
        #expect(result.nodes == 0)
    }

    @Test func externalDTDIsRejected() throws {
        let marked = MarkedXML(header + """
            1️⃣<!DOCTYPE osm SYSTEM "http://example.invalid/osm.dtd">
            <osm version="0.6"><node id="1" lat="1" lon="2"/></osm>
            """)
        let (result, bag) = try OSMTest.read(marked.text)
        #expect(Self.errors(bag) == ["\(marked["1️⃣"].line):\(marked["1️⃣"].column) osm.entity_declaration"])
        #expect(result.nodes == 0)
    }

    /// Billion laughs: ten levels of ten references would expand to 10⁹ "lol"s (3 GB).
    @Test func billionLaughsIsNotExpanded() throws {
        var doctype = "<!DOCTYPE osm [\n  <!ENTITY lol0 \"lol\">\n"
        for i in 1...9 {
            doctype += "  <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        let xml = header + doctype + "<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"name\" v=\"&lol9;\"/></node></osm>\n"
        let (result, bag) = try OSMTest.read(xml)
        #expect(Self.errors(bag) == ["2:1 osm.entity_declaration"])
        #expect(result.pois.isEmpty)
    }

    @Test func recursiveEntityIsRejected() throws {
        let xml = header + """
            <!DOCTYPE osm [
              <!ENTITY a "&b;">
              <!ENTITY b "&a;">
            ]>
            <osm version="0.6"><node id="1" lat="1" lon="2"><tag k="name" v="&a;"/></node></osm>
            """
        let (_, bag) = try OSMTest.read(xml)
        #expect(Self.errors(bag) == ["2:1 osm.entity_declaration"])
    }

    /// A 200 000-node file cut in the middle of an attribute: one located error at the cut.
    @Test func truncatedBigFileIsLocated() throws {
        var xml = header + "<osm version=\"0.6\">\n"
        for i in 1...200_000 { xml += "  <node id=\"\(i)\" lat=\"43.7\" lon=\"7.4\"/>\n" }
        let cut = xml.utf8.count - 20
        let truncated = String(decoding: Array(xml.utf8)[..<cut], as: UTF8.self)
        let (_, bag) = try OSMTest.read(truncated)
        let errors = bag.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["osm.xml_malformed"], "\(errors)")
        #expect(errors.first?.location?.line == 200_002, "\(errors)")
    }

    @Test func badlyNestedIsLocated() throws {
        let marked = MarkedXML(header + """
            <osm version="0.6">
              <way id="1"><nd ref="1"/>
              <node id="1" lat="1" lon="2"></way>1️⃣
            </osm>
            """)
        let (_, bag) = try OSMTest.read(marked.text)
        #expect(Self.errors(bag).contains("\(marked["1️⃣"].line):\(marked["1️⃣"].column) osm.xml_malformed"), "\(bag.diagnostics)")
    }

    @Test(arguments: [
        "1e308", "-1e308", "Infinity", "-inf", "nan", "+", "", " 1", "0x10", "90.0000001", "1.5e1", "٣",
        "123456789012345678901234567890",
    ])
    func nonFiniteOrOutOfRangeLatitude(_ lat: String) throws {
        let (result, bag) = try OSMTest.read(header + """
            <osm version="0.6"><node id="1" lat="\(lat)" lon="7"><tag k="amenity" v="cafe"/><tag k="name" v="C"/></node></osm>
            """)
        #expect(Self.errors(bag) == ["2:20 osm.invalid_coordinates"], "\(bag.diagnostics)")
        #expect(result.pois.isEmpty)
    }

    @Test func edgeCoordinatesAreAccepted() throws {
        let (result, bag) = try OSMTest.read(header + """
            <osm version="0.6"><node id="1" lat="-90" lon="180"><tag k="amenity" v="cafe"/><tag k="name" v="C"/></node><node id="2" lat="90.0000000" lon="-180.0"><tag k="amenity" v="cafe"/><tag k="name" v="D"/></node></osm>
            """)
        #expect(Self.errors(bag).isEmpty, "\(bag.diagnostics)")
        #expect(result.pois.count == 2)
    }

    @Test func idsThatOverflow64BitsAreErrors() throws {
        let marked = MarkedXML(header + """
            <osm version="0.6">
              1️⃣<node id="9223372036854775808" lat="1" lon="2"/>
              <node id="9223372036854775807" lat="1" lon="2"/>
              <node id="-9223372036854775807" lat="1" lon="2"/>
              <way id="5"><nd ref="9223372036854775807"/>2️⃣<nd ref="18446744073709551616"/></way>
              <relation id="6">3️⃣<member type="node" ref="99999999999999999999" role=""/></relation>
              4️⃣<relation id="100000000000000000000000"/>
            </osm>
            """)
        let (_, bag) = try OSMTest.read(marked.text)
        let expected = [
            ("1️⃣", "osm.invalid_id"), ("2️⃣", "osm.invalid_id"), ("3️⃣", "osm.invalid_relation_member"), ("4️⃣", "osm.invalid_id"),
        ].map { "\(marked[$0.0].line):\(marked[$0.0].column) \($0.1)" }
        #expect(Self.errors(bag) == expected, "\(bag.diagnostics)")
        #expect(bag.diagnostics.first?.message.contains("64-bit") == true)
    }

    @Test func invalidUTF8IsLocated() throws {
        var bytes = Array((header + "<osm version=\"0.6\">\n  <node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"name\" v=\"").utf8)
        bytes += [0xC3, 0x28, 0xFF]
        bytes += Array("\"/></node>\n</osm>\n".utf8)
        let (_, bag) = try readBytes(bytes)
        #expect(bag.diagnostics.map(\.code) == ["osm.xml_malformed"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.first?.location?.line == 3)
    }

    @Test func nulByteIsLocated() throws {
        var bytes = Array((header + "<osm version=\"0.6\">\n  <node id=\"1\" lat=\"1\" lon=\"2\">").utf8)
        bytes += [0]
        bytes += Array("</node>\n</osm>\n".utf8)
        let (_, bag) = try readBytes(bytes)
        #expect(bag.diagnostics.map(\.code) == ["osm.xml_malformed"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.first?.location?.line == 3)
    }

    /// Found by FuzzOSM: a declared encoding whose conversion fails was reported by libxml2 on stderr only, and
    /// the file read as empty with no error. It is now osm.xml_malformed.
    @Test(arguments: [
        Array("<?xml version='1.0' encoding='UTF-7'?>\n<osm version=\"0.6\">\n<node id=\"1\" lat=\"1\" lon=\"2\"/>+AGEA-</osm>\n".utf8),
        Array("<?xml version='1.0' encoding='UTF-7'?>\n< gene".utf8) + [0, 0],
    ])
    func encodingConversionFailureIsAnError(_ bytes: [UInt8]) throws {
        let (_, bag) = try readBytes(bytes)
        #expect(bag.diagnostics.map(\.code) == ["osm.xml_malformed"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.first?.message.contains("conversion failed") == true)
        #expect((bag.diagnostics.first?.location?.line ?? 0) > 0)
    }

    func readBytes(_ bytes: [UInt8], name: String = "bytes.osm", options: OSMReadOptions = .init()) throws
        -> (OSMIngestResult, DiagnosticBag)
    {
        let dir = try TestPaths.temporaryDirectory("hostile-osm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return try OSMTest.read(files: [url.path], options: options)
    }

    // MARK: Limits

    @Test func nestingDepthLimit() throws {
        let deep = String(repeating: "<x>", count: 40) + String(repeating: "</x>", count: 40)
        let marked = MarkedXML(header + "<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"2\">" + deep + "</node></osm>\n")
        let (_, bag) = try OSMTest.read(marked.text)
        #expect(bag.diagnostics.map(\.code).contains("osm.limit_exceeded"), "\(bag.diagnostics)")
        #expect(bag.diagnostics.contains { $0.message.contains("nested more than 32") })

        // 4 levels (osmChange/create/node/tag) are within even a small limit.
        var options = OSMReadOptions()
        options.maxDepth = 4
        let (_, ok) = try OSMTest.read(header + """
            <osmChange version="0.6"><create><node id="1" lat="1" lon="2"><tag k="a" v="b"/></node></create></osmChange>
            """, options: options)
        #expect(ok.diagnostics.isEmpty, "\(ok.diagnostics)")
    }

    /// A million nested elements: stopped at the limit, not by the stack or libxml2's own cap.
    @Test func millionNestedElementsStopAtTheLimit() throws {
        let n = 1_000_000
        var bytes = Array((header + "<osm version=\"0.6\">").utf8)
        bytes.reserveCapacity(bytes.count + 3 * n + 8)
        for _ in 0..<n { bytes += [UInt8(ascii: "<"), UInt8(ascii: "a"), UInt8(ascii: ">")] }
        let (_, bag) = try readBytes(bytes)
        // <a> is not OSM (reported once, then skipped); the 32nd level stops the file.
        #expect(bag.diagnostics.map(\.code) == ["osm.unexpected_element", "osm.limit_exceeded"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.last?.location?.description == "bytes.osm:2:113")
    }

    @Test func refsPerElementLimit() throws {
        var options = OSMReadOptions()
        options.maxRefsPerElement = 3
        let marked = MarkedXML(header + """
            <osm version="0.6">
              <node id="1" lat="1" lon="2"/>
              1️⃣<way id="10"><nd ref="1"/><nd ref="1"/><nd ref="1"/><nd ref="1"/><nd ref="1"/></way>
              <way id="11"><nd ref="1"/><nd ref="1"/><nd ref="1"/></way>
              2️⃣<relation id="12"><member type="node" ref="1" role=""/><member type="node" ref="1" role=""/><member type="node" ref="1" role=""/><member type="node" ref="1" role=""/></relation>
            </osm>
            """)
        let (_, bag) = try OSMTest.read(marked.text, options: options)
        #expect(Self.errors(bag) == ["1️⃣", "2️⃣"].map { "\(marked[$0].line):\(marked[$0].column) osm.limit_exceeded" })
        let (_, ok) = try OSMTest.read(marked.text)
        #expect(Self.errors(ok).isEmpty)
    }

    /// A gzip bomb: 8 MiB of spaces in 8 KiB of .osm.gz; decompressed bytes are bounded.
    @Test func gzipBombStopsAtTheDecompressedLimit() throws {
        let dir = try TestPaths.temporaryDirectory("hostile-gz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("bomb.osm")
        var xml = Array((header + "<osm version=\"0.6\">").utf8)
        xml += [UInt8](repeating: 0x20, count: 8 << 20)
        xml += Array("</osm>\n".utf8)
        try Data(xml).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-9", plain.path]
        try gzip.run()
        gzip.waitUntilExit()
        let gz = dir.appendingPathComponent("bomb.osm.gz").path
        let (_, bag) = try OSMTest.read(files: [gz], options: OSMReadOptions(maxInputBytes: 1 << 20))
        #expect(bag.diagnostics.map(\.code) == ["osm.limit_exceeded"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.first?.message.contains("after decompression") == true)
        let (_, ok) = try OSMTest.read(files: [gz])
        #expect(ok.diagnostics.isEmpty, "\(ok.diagnostics)")
    }
}

@Suite struct HostileCSVTests {
    static func scan(_ bytes: [UInt8], options: CSVOptions = CSVOptions()) -> (CSVScanSummary, DiagnosticBag) {
        let bag = DiagnosticBag(maxPerCode: 1_000_000)
        let summary = bytes.withUnsafeBytes { CSVScanner.scan($0, file: "t.csv", options: options, bag: bag) { _ in } }
        return (summary, bag)
    }

    /// An unterminated quote on line 2 of a million lines: one error, at line 2, no rows.
    @Test func unterminatedQuoteOnLineTwoOfAMillion() {
        var bytes = Array("stop_id,stop_name\nS0,\"Open quote\n".utf8)
        bytes.reserveCapacity(20_000_000)
        for i in 1..<1_000_000 { bytes += Array("S\(i),Stop \(i)\n".utf8) }
        let (summary, bag) = Self.scan(bytes)
        #expect(bag.diagnostics.map(\.code) == ["csv.unterminated_quote"], "\(bag.diagnostics.prefix(3))")
        #expect(bag.diagnostics.first?.location?.description == "t.csv:2:4")
        #expect(bag.diagnostics.first?.location?.field == "stop_name")
        #expect(summary.rows == 0)
    }

    @Test func fieldsPerRowLimit() {
        var options = CSVOptions()
        options.maxFieldsPerRow = 4
        let text = "a,b,c\n1,2,3\n1,2,3,4,5,6,7\n4,5,6\n"
        let (summary, bag) = Self.scan(Array(text.utf8), options: options)
        #expect(bag.diagnostics.map { "\($0.location!.description) \($0.code)" } == ["t.csv:3:9 csv.too_many_fields"])
        #expect(summary.rows == 2, "the wide row is skipped")
        let (ok, okBag) = Self.scan(Array("a,b,c\n1,2,3\n1,2,3,\n".utf8), options: options)
        #expect(!okBag.diagnostics.map(\.code).contains("csv.too_many_fields"))
        #expect(ok.rows == 2)
    }

    /// A single row of two million empty cells keeps at most the limit in memory and is one error.
    @Test func rowOfMillionsOfCommas() {
        let bytes = Array("a,b\n".utf8) + [UInt8](repeating: UInt8(ascii: ","), count: 2_000_000) + [0x0A]
        let (_, bag) = Self.scan(bytes)
        let errors = bag.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["csv.too_many_fields"], "\(bag.diagnostics)")
        #expect(errors.first?.location?.description == "t.csv:2:1001")
    }

    @Test func invalidUTF8AndNulAreLocated() {
        let bytes = Array("a,b\n1,x".utf8) + [0xC3, 0x28] + Array("\n2,y".utf8) + [0] + Array("\n".utf8)
        let (_, bag) = Self.scan(bytes)
        let got = bag.diagnostics.map { "\($0.location!.description) \($0.code)" }
        #expect(got.contains("t.csv:2:4 csv.invalid_utf8"), "\(got)")
        #expect(got.contains("t.csv:3:4 csv.nul_byte"), "\(got)")
    }
}

@Suite struct HostileGTFSTests {
    static let tables: [(String, String)] = [
        ("agency.txt", "agency_name,agency_url,agency_timezone\nAg,http://a.example,Europe/Monaco\n"),
        ("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,One,43.73,7.42\nS2,Two,43.74,7.43\n"),
        ("routes.txt", "route_id,route_short_name,route_type\nR,1,3\n"),
        ("trips.txt", "route_id,service_id,trip_id\nR,WK,T\n"),
        ("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:05:00,08:05:00,S2,2\n"),
        ("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20240101,20301231\n"),
    ]

    static func read(_ entries: [TestZip.Entry], options: GTFSReadOptions = GTFSReadOptions()) throws -> (GTFSFeed?, DiagnosticBag) {
        let dir = try TestPaths.temporaryDirectory("hostile-zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("feed.zip")
        try TestZip.make(entries).write(to: zip)
        let bag = DiagnosticBag()
        let feed = try GTFSReader.read(path: zip.path, displayPath: "feed.zip", bag: bag, options: options)
        // Nothing was extracted next to the archive or above it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["feed.zip"])
        return (feed, bag)
    }

    static var good: [TestZip.Entry] { tables.map { TestZip.Entry($0.0, $0.1) } }

    static func codes(_ bag: DiagnosticBag) -> [String] { bag.diagnostics.filter { $0.severity == .error }.map(\.code) }

    @Test func goodZipHasNoErrors() throws {
        let (feed, bag) = try Self.read(Self.good)
        #expect(Self.codes(bag).isEmpty, "\(bag.diagnostics)")
        #expect(feed?.stops.count == 2)
    }

    @Test(arguments: ["../evil.txt", "../../etc/stops.txt", "/abs/stops.txt", "a/../../stops.txt", "C:\\x.txt", "..\\x.txt"])
    func unsafeEntryPaths(_ name: String) throws {
        let (feed, bag) = try Self.read(Self.good + [TestZip.Entry(name, "x\n")])
        let unsafe = bag.diagnostics.filter { $0.code == "gtfs.unsafe_archive_entry" }
        #expect(unsafe.count == 1, "\(bag.diagnostics)")
        #expect(unsafe.first?.location?.file == "feed.zip")
        #expect(feed?.stops.count == 2, "safe entries are still read")
    }

    /// 40 MiB of zeros deflate to ~40 KiB: a ratio near 1000, stopped while inflating at 200×.
    @Test func zipBombIsStoppedByRatio() throws {
        let (_, bag) = try Self.read(Self.good.filter { $0.name != "stops.txt" } + [.zeros("stops.txt", count: 40 << 20)])
        #expect(Self.codes(bag) == ["gtfs.zip_bomb"], "\(bag.diagnostics)")
        #expect(bag.diagnostics.first { $0.code == "gtfs.zip_bomb" }?.location?.file == "feed.zip/stops.txt")
    }

    /// The header claims 100 bytes; the entry inflates to 8 MiB: stopped at the size limit, not trusted.
    @Test func lyingHeaderIsStoppedBySize() throws {
        var options = GTFSReadOptions(maxFileSize: 1 << 20)
        options.maxCompressionRatio = 100_000
        let (_, bag) = try Self.read(
            Self.good.filter { $0.name != "stops.txt" } + [.zeros("stops.txt", count: 8 << 20, declaredSize: 100)], options: options)
        #expect(Self.codes(bag) == ["gtfs.archive_too_large"], "\(bag.diagnostics)")
    }

    @Test func declaredTotalOverTheLimit() throws {
        let (feed, bag) = try Self.read(
            Self.good + [TestZip.Entry("notes.txt", Array("x".utf8), declaredSize: UInt32.max)],
            options: GTFSReadOptions(maxTotalSize: 1 << 30))
        #expect(Self.codes(bag) == ["gtfs.archive_too_large"], "\(bag.diagnostics)")
        #expect(feed == nil)
    }

    @Test func entryCountLimit() throws {
        var options = GTFSReadOptions()
        options.maxEntries = 10
        let many = Self.good + (0..<10).map { TestZip.Entry("extra\($0).txt", "x\n") }
        let (feed, bag) = try Self.read(many, options: options)
        #expect(Self.codes(bag) == ["gtfs.archive_too_many_entries"], "\(bag.diagnostics)")
        #expect(feed == nil)
        let (_, ok) = try Self.read(Self.good, options: options)
        #expect(!ok.diagnostics.map(\.code).contains("gtfs.archive_too_many_entries"))
    }

    @Test func ratioLimitDoesNotFlagRealTables() throws {
        // Repetitive but real-looking stop_times: 20 000 rows compress ~30×.
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<20_000 { text += "T,08:00:00,08:00:00,S\(i % 2 + 1),\(i + 1)\n" }
        let entries = Self.good.filter { $0.name != "stop_times.txt" } + [TestZip.Entry("stop_times.txt", text)]
        let (_, bag) = try Self.read(entries)
        #expect(!bag.diagnostics.map(\.code).contains("gtfs.zip_bomb"))
    }

    /// Found by FuzzGTFSZip (a timeout): a deflate entry that ends before its stream does, at the end of the
    /// archive, made ZIPFoundation's inflate loop forever. The feed's own reader now ends with located errors.
    @Test func fuzzRegressionTruncatedDeflateAtEndOfArchive() throws {
        let path = TestPaths.root.appendingPathComponent("Tests/CityPackIngestTests/Fixtures/fuzz-regressions/gtfs-zip-timeout-eeb0224d.zip").path
        let bag = DiagnosticBag()
        _ = try GTFSReader.read(path: path, displayPath: "feed.zip", bag: bag)
        let archive = bag.diagnostics.filter { $0.code == "gtfs.invalid_archive" }.map { "\($0.location!.description): \($0.message)" }
        #expect(archive == [
            "feed.zip/stop_times.txt: cannot read entry: the compressed data ends early (truncated entry)",
            "feed.zip/stops.txt: cannot read entry: bad local header",
        ])
    }

    /// Rewrites the compressed size of the first entry in both headers.
    static func patchCompressedSize(_ zip: inout Data, _ size: UInt32) {
        let bytes = [UInt8](zip)
        func put(_ at: Int) { for i in 0..<4 { zip[at + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) } }
        put(18)
        if let central = (0..<(bytes.count - 4)).first(where: { bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 1 && bytes[$0 + 3] == 2 }) {
            put(central + 20)
        }
    }

    static func readRaw(_ zip: Data) throws -> DiagnosticBag {
        let dir = try TestPaths.temporaryDirectory("hostile-raw-zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        try zip.write(to: dir.appendingPathComponent("feed.zip"))
        let bag = DiagnosticBag()
        _ = try GTFSReader.read(path: dir.appendingPathComponent("feed.zip").path, displayPath: "feed.zip", bag: bag)
        return bag
    }

    @Test func compressedSizeBeyondTheArchive() throws {
        var zip = TestZip.make([TestZip.Entry("stops.txt", Self.tables[1].1)] + Self.good.dropFirst(2))
        Self.patchCompressedSize(&zip, 0x7FFF_FFFF)
        let bag = try Self.readRaw(zip)
        #expect(bag.diagnostics.contains {
            $0.code == "gtfs.invalid_archive" && $0.location?.file == "feed.zip/stops.txt" && $0.message.contains("more than the archive holds")
        }, "\(bag.diagnostics)")
    }

    @Test func deflateStreamCutShort() throws {
        var zip = TestZip.make([TestZip.Entry("stops.txt", Self.tables[1].1)] + Self.good.dropFirst(2))
        Self.patchCompressedSize(&zip, 10)
        let bag = try Self.readRaw(zip)
        #expect(bag.diagnostics.contains { $0.code == "gtfs.invalid_archive" && $0.message.contains("ends early") }, "\(bag.diagnostics)")
    }

    @Test func crcMismatch() throws {
        var zip = TestZip.make([TestZip.Entry("stops.txt", Self.tables[1].1, deflate: false)] + Self.good.dropFirst(2))
        zip[30 + "stops.txt".utf8.count + 2] ^= 0x01  // a byte of the stored data
        let bag = try Self.readRaw(zip)
        #expect(bag.diagnostics.contains { $0.code == "gtfs.invalid_archive" && $0.message.contains("CRC-32") }, "\(bag.diagnostics)")
    }

    @Test func notAZipAndEmptyFile() throws {
        for bytes in [Data(), Data("PK\u{3}\u{4} not really".utf8), Data(repeating: 0x50, count: 100_000)] {
            let bag = try Self.readRaw(bytes)
            #expect(bag.diagnostics.map(\.code) == ["gtfs.invalid_archive"], "\(bag.diagnostics)")
        }
    }

    @Test func fieldsPerRowLimitReachesTheTables() throws {
        var options = GTFSReadOptions()
        options.maxFieldsPerRow = 3
        let (_, bag) = try Self.read(Self.good, options: options)
        #expect(bag.diagnostics.map(\.code).contains("csv.too_many_fields"))
    }
}

@Suite struct CityFileLimitsTests {
    static func load(_ yaml: String, files: [String: String] = ["map.osm": "<osm version=\"0.6\"/>"]) throws -> (City?, DiagnosticBag) {
        let dir = try TestPaths.temporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        try Data(yaml.utf8).write(to: dir.appendingPathComponent("city.yaml"))
        let bag = DiagnosticBag()
        return (CityFileLoader.load(dir.path, knownRules: [], bag: bag), bag)
    }

    static let base = "id: x\nname: X\nbbox: [7.4, 43.7, 7.5, 43.8]\nsources: { osm: [map.osm] }\n"

    @Test func defaultsWhenAbsent() throws {
        let (city, bag) = try Self.load(Self.base)
        #expect(bag.diagnostics.isEmpty)
        #expect(city?.limits == InputLimits())
    }

    @Test func everyKeyIsRead() throws {
        let entries = InputLimits.keys.enumerated().map { "  \($0.element): \($0.offset + 11)" }.joined(separator: "\n")
        let (city, bag) = try Self.load(Self.base + "limits:\n" + entries + "\n")
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        let limits = try #require(city?.limits)
        for (i, key) in InputLimits.keys.enumerated() { #expect(limits.value(key) == Int64(i + 11), "\(key)") }
        let osm = OSMReadOptions(limits: limits)
        #expect(osm.maxInputBytes == 11 && osm.maxValueBytes == 12 && osm.maxTagsPerElement == 13)
        #expect(osm.maxRefsPerElement == 14 && osm.maxDepth == 15)
        let gtfs = GTFSReadOptions(limits: limits)
        #expect(gtfs.maxFileSize == 11 && gtfs.maxFieldLength == 12 && gtfs.maxRows == 16 && gtfs.maxFieldsPerRow == 17)
        #expect(gtfs.maxTotalSize == 18 && gtfs.maxCompressionRatio == 19 && gtfs.maxEntries == 20)
    }

    @Test func underscoresAreAccepted() throws {
        let (city, bag) = try Self.load(Self.base + "limits: { rows: 1_000_000 }\n")
        #expect(bag.diagnostics.isEmpty)
        #expect(city?.limits.rows == 1_000_000)
    }

    @Test(arguments: [
        ("limits: { rowz: 5 }", "5:11"), ("limits: { rows: -1 }", "5:17"), ("limits: { rows: many }", "5:17"),
        ("limits: { depth: 0 }", "5:18"), ("limits: [1, 2]", "5:9"), ("limits: { rows: 1.5 }", "5:17"),
    ])
    func badLimitsAreLocatedSyntaxErrors(_ line: String, _ at: String) throws {
        let (city, bag) = try Self.load(Self.base + line + "\n")
        #expect(city == nil)
        #expect(bag.diagnostics.map { "\($0.location!.line):\($0.location!.column) \($0.code)" } == ["\(at) city.syntax"])
    }

    @Test func oversizedCityFileIsNotRead() throws {
        let (city, bag) = try Self.load(Self.base + "# " + String(repeating: "x", count: 1 << 20) + "\n")
        #expect(city == nil)
        #expect(bag.diagnostics.map(\.code) == ["city.syntax"])
        #expect(bag.diagnostics.first?.message.contains("more than 1048576") == true)
        let (ok, okBag) = try Self.load(Self.base + "# " + String(repeating: "x", count: 1000) + "\n")
        #expect(ok != nil && okBag.diagnostics.isEmpty)
    }

    @Test func missingAndUnreadableSourcesAreLocated() throws {
        let yaml = "id: x\nname: X\nbbox: [7.4, 43.7, 7.5, 43.8]\nsources:\n  osm:\n    - missing.osm\n    - folder.osm\n"
        let dir = try TestPaths.temporaryDirectory("sources")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder.osm"), withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: dir.appendingPathComponent("city.yaml"))
        let bag = DiagnosticBag()
        #expect(CityFileLoader.load(dir.path, knownRules: [], bag: bag) == nil)
        #expect(bag.diagnostics.map { "\($0.location!.line):\($0.location!.column) \($0.code)" } == [
            "6:7 city.missing_source", "7:7 city.missing_source",
        ])
        #expect(bag.diagnostics.last?.message.contains("is a folder") == true)
    }
}
