import CityPackTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 7, point 3, through the binary: each hostile input ends in exit 1 with an error located at
/// `path:line:col` (or at the path, when the whole file or folder is the problem), and nothing is written.
/// Big inputs are generated here, never committed.
@Suite(.serialized) struct HostileCLITests {
    static let bbox = "[7.40, 43.72, 7.44, 43.76]"
    static let cafe = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
          <node id="1" lat="43.73" lon="7.42"><tag k="amenity" v="cafe"/><tag k="name" v="Café"/></node>
        </osm>

        """

    /// A city folder with `city.yaml` and the given files; returns (city folder, output folder).
    static func city(
        osm: [UInt8]? = Array(cafe.utf8), osmName: String = "map.osm", gtfs: String? = nil, files: [String: [UInt8]] = [:],
        extraYAML: String = ""
    ) throws -> (URL, URL) {
        let tmp = try TestPaths.temporaryDirectory("hostile-cli")
        let city = tmp.appendingPathComponent("city")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        var sources: [String] = []
        if let osm {
            try Data(osm).write(to: city.appendingPathComponent(osmName))
            sources.append("  osm: [\(osmName)]")
        }
        if let gtfs { sources.append("  gtfs: [\(gtfs)]") }
        for (name, bytes) in files {
            let url = city.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let yaml = """
            id: hostile
            name: Hostile
            locales: [en]
            bbox: \(bbox)
            sources:
            \(sources.joined(separator: "\n"))
            \(extraYAML)
            """
        try Data(yaml.utf8).write(to: city.appendingPathComponent("city.yaml"))
        return (city, tmp.appendingPathComponent("out"))
    }

    static let environment = [
        "CITYPACK_TEMPLATES": TestPaths.root.appendingPathComponent("templates").path, "SOURCE_DATE_EPOCH": "1700000000",
    ]

    /// Runs `citypack build` and returns the `location: error[code]` lines.
    static func build(_ city: URL, output: URL) throws -> (status: Int32, errors: [String], stderr: String) {
        let result = try CLIRunner.run(
            ["build", city.path, "--output", output.path, "--quiet"], environment: environment, cwd: city)
        // Human lines read `path:line:col: error: message [code]`; keep them as `path:line:col: error[code]`.
        let errors = result.stderr.split(separator: "\n").map(String.init).compactMap { line -> String? in
            guard let split = line.range(of: ": error: "), line.hasSuffix("]"),
                let open = line.range(of: " [", options: .backwards)
            else { return nil }
            return "\(line[..<split.lowerBound]): error[\(line[open.upperBound..<line.index(before: line.endIndex)])]"
        }
        return (result.status, errors, result.stderr)
    }

    /// Asserts exit 1, one error line starting with `location` and naming `code`, and no pack written.
    static func expectLocatedFailure(_ city: URL, _ output: URL, _ location: String, _ code: String) throws {
        let (status, errors, stderr) = try build(city, output: output)
        // Sources are shown by their path inside the city folder (absolute here, as the folder is).
        let full = location.hasPrefix("/") ? location : "\(city.path)/\(location)"
        #expect(status == 1, "\(stderr)")
        #expect(errors.contains { $0.hasPrefix("\(full): error[\(code)]") }, "\(stderr)")
        #expect(try packFiles(output).isEmpty, "no pack, manifest or catalog is written (only the report)")
    }

    /// Every file under `output` but the diagnostic reports, which are written on every run.
    static func packFiles(_ output: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: output.path) else { return [] }
        let reports: Set<String> = ["report.json", "report.html", "build-stats.json"]
        return walker.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: output.appendingPathComponent($0).path, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue && !reports.contains(($0 as NSString).lastPathComponent)
        }
    }

    @Test func validCityBuilds() throws {
        let (city, out) = try Self.city()
        let (status, errors, stderr) = try Self.build(city, output: out)
        #expect(status == 0, "\(stderr)")
        #expect(errors.isEmpty)
    }

    @Test func entityDeclaration() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE osm [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
            <osm version="0.6"><node id="1" lat="43.73" lon="7.42"><tag k="name" v="&x;"/></node></osm>
            """
        let (city, out) = try Self.city(osm: Array(xml.utf8))
        try Self.expectLocatedFailure(city, out, "map.osm:2:1", "osm.entity_declaration")
    }

    @Test func truncatedXML() throws {
        let (city, out) = try Self.city(osm: Array(Self.cafe.utf8.dropLast(12)))
        try Self.expectLocatedFailure(city, out, "map.osm:3:93", "osm.xml_malformed")
    }

    @Test func badlyNestedXML() throws {
        let xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n<node id=\"1\" lat=\"43.73\" lon=\"7.42\"></way>\n</osm>\n"
        let (city, out) = try Self.city(osm: Array(xml.utf8))
        try Self.expectLocatedFailure(city, out, "map.osm:3:43", "osm.xml_malformed")
    }

    @Test(arguments: ["nan", "inf", "1e400", "91", "-90.0000001"])
    func nonFiniteOrOutOfRangeCoordinates(_ lat: String) throws {
        let xml = Self.cafe.replacingOccurrences(of: "lat=\"43.73\"", with: "lat=\"\(lat)\"")
        let (city, out) = try Self.city(osm: Array(xml.utf8))
        try Self.expectLocatedFailure(city, out, "map.osm:3:3", "osm.invalid_coordinates")
    }

    @Test func idOverflowing64Bits() throws {
        let xml = Self.cafe.replacingOccurrences(of: "id=\"1\"", with: "id=\"18446744073709551617\"")
        let (city, out) = try Self.city(osm: Array(xml.utf8))
        try Self.expectLocatedFailure(city, out, "map.osm:3:3", "osm.invalid_id")
    }

    @Test func invalidUTF8InXML() throws {
        var bytes = Array(Self.cafe.utf8)
        let at = bytes.firstIndex(of: 0xC3)!  // the first byte of é
        bytes[at] = 0xFF
        let (city, out) = try Self.city(osm: bytes)
        try Self.expectLocatedFailure(city, out, "map.osm:3:86", "osm.xml_malformed")
    }

    @Test func nulByteInXML() throws {
        var bytes = Array(Self.cafe.utf8)
        bytes.insert(0, at: bytes.count - 8)
        let (city, out) = try Self.city(osm: bytes)
        try Self.expectLocatedFailure(city, out, "map.osm:3:97", "osm.xml_malformed")
    }

    /// Found by fuzzing: libxml2 printed encoding errors to stderr and the file passed as empty.
    @Test func encodingConversionFailure() throws {
        let xml = "<?xml version='1.0' encoding='UTF-7'?>\n<osm version=\"0.6\">\n<node id=\"1\" lat=\"43.73\" lon=\"7.42\"/>+AGEA-</osm>\n"
        let (city, out) = try Self.city(osm: Array(xml.utf8))
        try Self.expectLocatedFailure(city, out, "map.osm:1:37", "osm.xml_malformed")
        let (_, _, stderr) = try Self.build(city, output: out)
        #expect(!stderr.contains("encoding error :"), "libxml2 no longer writes to stderr: \(stderr)")
    }

    static let feed: [String: String] = [
        "agency.txt": "agency_name,agency_url,agency_timezone\nAg,http://a.example,Europe/Monaco\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,43.73,7.42\nS2,Two,43.74,7.43\n",
        "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR,WK,T\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:05:00,08:05:00,S2,2\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "WK,1,1,1,1,1,0,0,20230101,20301231\n",
    ]

    /// stops.txt has an unterminated quote on line 2 and a million lines after it.
    @Test func unterminatedQuoteOnLineTwoOfAMillion() throws {
        var stops = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,\"One,43.73,7.42\n".utf8)
        stops.reserveCapacity(40_000_000)
        for i in 2...1_000_000 { stops += Array("S\(i),Stop \(i),43.73,7.42\n".utf8) }
        var files = Self.feed.mapValues { Array($0.utf8) }
        files["stops.txt"] = stops
        let (city, out) = try Self.city(gtfs: "gtfs", files: Dictionary(uniqueKeysWithValues: files.map { ("gtfs/\($0.key)", $0.value) }))
        try Self.expectLocatedFailure(city, out, "gtfs/stops.txt:2:4", "csv.unterminated_quote")
    }

    static func zipCity(_ extra: [TestZip.Entry], replacing: String? = nil, extraYAML: String = "") throws -> (URL, URL) {
        var entries = Self.feed.sorted { $0.key < $1.key }.filter { $0.key != replacing }.map { TestZip.Entry($0.key, $0.value) }
        entries += extra
        return try Self.city(gtfs: "feed.zip", files: ["feed.zip": [UInt8](TestZip.make(entries))], extraYAML: extraYAML)
    }

    @Test func zipWithParentEntries() throws {
        let (city, out) = try Self.zipCity([TestZip.Entry("../../evil.txt", "x\n"), TestZip.Entry("../stops.txt", "y\n")])
        try Self.expectLocatedFailure(city, out, "feed.zip", "gtfs.unsafe_archive_entry")
        #expect(!FileManager.default.fileExists(atPath: city.deletingLastPathComponent().appendingPathComponent("evil.txt").path))
        #expect(!FileManager.default.fileExists(atPath: city.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("evil.txt").path))
    }

    @Test func zipBomb() throws {
        // 64 MiB of zeros in ~64 KiB, with default limits: stopped after inflating 200× the compressed size.
        let (city, out) = try Self.zipCity([.zeros("stop_times.txt", count: 64 << 20)], replacing: "stop_times.txt")
        try Self.expectLocatedFailure(city, out, "feed.zip/stop_times.txt", "gtfs.zip_bomb")
    }

    @Test func limitsFromTheCityFile() throws {
        let (city, out) = try Self.city(extraYAML: "limits: { tags_per_element: 1 }\n")
        try Self.expectLocatedFailure(city, out, "map.osm:3:3", "osm.limit_exceeded")
    }

    // MARK: OSM PBF (issue 13, point 4)

    /// A valid hand-built PBF builds; so does the same bytes under a `.osm` name (detected by content).
    @Test func smallPBFBuilds() throws {
        for name in ["map.osm.pbf", "map.osm"] {
            let (city, out) = try Self.city(osm: PBFBuilder.smallCity(), osmName: name)
            let (status, errors, stderr) = try Self.build(city, output: out)
            #expect(status == 0 && errors.isEmpty, "\(stderr)")
            #expect(try !Self.packFiles(out).isEmpty)
        }
    }

    /// Each hostile PBF is one located `osm.pbf_malformed` error naming the blob's file offset: exit 1, no pack.
    @Test(arguments: PBFCase.allCases)
    func hostilePBF(_ hostile: PBFCase) throws {
        let (city, out) = try Self.city(osm: hostile.bytes, osmName: "map.osm.pbf")
        try Self.expectLocatedFailure(city, out, "map.osm.pbf", "osm.pbf_malformed")
        let (_, _, stderr) = try Self.build(city, output: out)
        #expect(stderr.contains("in the blob at file offset \(hostile.offset): \(hostile.message)"), "\(stderr)")
    }

    enum PBFCase: String, CaseIterable, CustomTestStringConvertible {
        case truncatedBlob, blobOver32MiB, headerOver64KiB, varintOver10Bytes, stringIndexOutOfRange, deltaOverflow, zlibBomb

        var testDescription: String { rawValue }

        static let header = PBFBuilder.header()

        /// A data blob holding `block`.
        static func data(_ block: [UInt8]) -> [UInt8] { header + PBFBuilder.frame(blob: PBFBuilder.zlibBlob(block)) }

        var bytes: [UInt8] {
            switch self {
            case .truncatedBlob: return Array(PBFBuilder.smallCity().dropLast(10))
            case .blobOver32MiB: return Self.header + PBFBuilder.frame(blob: [], datasize: 40_000_000)
            case .headerOver64KiB: return Self.header + [0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 16)
            case .varintOver10Bytes: return Self.data([0x08] + [UInt8](repeating: 0xFF, count: 11) + [0x01])
            case .stringIndexOutOfRange:
                return Self.data(
                    PBFBuilder.denseBlock(strings: ["", "amenity"], ids: [1], latE7: [437_300_000], lonE7: [74_100_000], keysVals: [1, 9, 0]))
            case .deltaOverflow:
                return Self.data(
                    PBFBuilder.denseBlock(
                        strings: [""], ids: [Int64.max, Int64.max &+ 1], latE7: [437_300_000, 437_300_000],
                        lonE7: [74_100_000, 74_100_000], keysVals: []))
            case .zlibBomb:
                // 64 MiB of zeros in about 64 KB of zlib, declared as 1 MiB: inflating stops at the declared size.
                let zeros = [UInt8](repeating: 0, count: 64 << 20)
                return Self.header
                    + PBFBuilder.frame(blob: PBFBuilder.zlibBlob(zeros, compressed: PBFBuilder.zlib(zeros), rawSize: 1 << 20))
            }
        }

        /// The file offset of the failing blob.
        var offset: Int {
            switch self {
            case .headerOver64KiB, .blobOver32MiB, .varintOver10Bytes, .stringIndexOutOfRange, .deltaOverflow, .zlibBomb:
                Self.header.count
            case .truncatedBlob: PBFBuilder.smallCity().count - 10  // where the file ends
            }
        }

        var message: String {
            switch self {
            case .truncatedBlob: "the file ends inside a blob"
            case .blobOver32MiB: "a blob of 40000000 bytes exceeds 32 MiB"
            case .headerOver64KiB: "a BlobHeader of 65537 bytes exceeds 64 KiB"
            case .varintOver10Bytes: "malformed protobuf"
            case .stringIndexOutOfRange: "string index 9 beyond the table of 2"
            case .deltaOverflow: "malformed protobuf"
            case .zlibBomb: "the blob does not inflate to its declared raw_size 1048576"
            }
        }
    }

    @Test func missingSource() throws {
        let (city, out) = try Self.city()
        let yaml = try String(contentsOf: city.appendingPathComponent("city.yaml"), encoding: .utf8)
        try yaml.replacingOccurrences(of: "[map.osm]", with: "[gone.osm]")
            .write(to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        try Self.expectLocatedFailure(city, out, "\(city.path)/city.yaml:6:9", "city.missing_source")
    }

    /// Unreadable even for root: a folder where a file is expected.
    @Test func unreadableSource() throws {
        let (city, out) = try Self.city(osm: nil, extraYAML: "")
        try FileManager.default.createDirectory(at: city.appendingPathComponent("map.osm"), withIntermediateDirectories: true)
        let yaml = try String(contentsOf: city.appendingPathComponent("city.yaml"), encoding: .utf8)
        try yaml.replacingOccurrences(of: "sources:\n", with: "sources:\n  osm: [map.osm]\n")
            .write(to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        try Self.expectLocatedFailure(city, out, "\(city.path)/city.yaml:6:9", "city.missing_source")
    }

    /// A folder nobody can write to, root included: chmod for other users; as root an immutable folder
    /// (chattr +i) when the file system allows it, else /sys, where even root cannot create entries.
    static func readOnlyFolder() throws -> (URL, cleanup: () -> Void)? {
        let fm = FileManager.default
        func unwritable(_ url: URL) -> Bool {
            let probe = url.appendingPathComponent("probe-\(getpid())")
            if (try? fm.createDirectory(at: probe, withIntermediateDirectories: false)) != nil {
                try? fm.removeItem(at: probe)
                return false
            }
            return true
        }
        let dir = try TestPaths.temporaryDirectory("read-only")
        if geteuid() != 0 {
            try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
            if unwritable(dir) { return (dir, { try? fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }) }
        }
        if let chattr = OutsideTools.chattr.path {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: chattr)
            p.arguments = ["+i", dir.path]
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            let undo = {
                let q = Process()
                q.executableURL = URL(fileURLWithPath: chattr)
                q.arguments = ["-i", dir.path]
                try? q.run()
                q.waitUntilExit()
                try? fm.removeItem(at: dir)
            }
            if p.terminationStatus == 0 && unwritable(dir) { return (dir, undo) }
            undo()
        }
        let sys = URL(fileURLWithPath: "/sys")
        if fm.fileExists(atPath: sys.path) && unwritable(sys) { return (sys, {}) }
        return nil
    }

    @Test func readOnlyOutputFolder() throws {
        guard let (output, cleanup) = try Self.readOnlyFolder() else {
            Issue.record("no way to make a read-only folder on this machine")
            return
        }
        defer { cleanup() }
        let (city, _) = try Self.city()
        let before = try FileManager.default.contentsOfDirectory(atPath: output.path)
        let (status, errors, stderr) = try Self.build(city, output: output)
        // An I/O failure while writing outputs is exit 74 (README, issue 6), with a located pack.io_failure.
        #expect(status == 74, "\(stderr)")
        #expect(errors.contains { $0.hasPrefix(output.path) && $0.contains("error[pack.io_failure]") }, "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == before, "nothing is written")
    }
}
