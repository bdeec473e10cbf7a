import CityPackBuild
import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

@testable import CityPackCLI

#if canImport(Glibc)
import Glibc
#endif

/// A `citypack` process that keeps running (`preview`, `build --watch`): its output is collected as it comes, and
/// tests wait for what they expect with a deadline instead of sleeping.
final class RunningCitypack: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = TestPaths.root
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            if d.isEmpty { h.readabilityHandler = nil }  // end of file
            self?.lock.withLock { self?.out.append(d) }
        }
        stderr.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            if d.isEmpty { h.readabilityHandler = nil }
            self?.lock.withLock { self?.err.append(d) }
        }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// Polls `probe` every 50 ms until it gives a value or `seconds` pass.
    func wait<T>(_ seconds: Double, for probe: () -> T?) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = probe() { return value }
            if !process.isRunning { return probe() }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return probe()
    }

    /// The port of `Previewing CITY at http://127.0.0.1:PORT/` (a debug build of Monaco on a loaded machine: minutes).
    func previewPort() -> UInt16? {
        wait(300) {
            guard let range = stdout.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else { return nil }
            return UInt16(stdout[range].dropFirst("http://127.0.0.1:".count).dropLast())
        }
    }

    /// Sends SIGTERM (or SIGINT, as Ctrl-C does, with `interrupt`) and waits for the exit status.
    func terminate(within seconds: Double = 60, interrupt: Bool = false) -> Int32? {
        if interrupt { process.interrupt() } else { process.terminate() }
        return wait(seconds) { process.isRunning ? nil : process.terminationStatus }
    }
}

/// Plain HTTP/1.1 over a socket of our own, so request targets go out byte for byte as written (URLSession would
/// normalise `/../` and percent-encodings before sending).
enum RawHTTP {
    /// A connected TCP socket to `address:port`, or nil (refused, unreachable). Reads time out after 120 s (a
    /// rebuild of the debug binary on a loaded machine).
    static func connect(_ address: String, _ port: UInt16, ipv6: Bool = false) -> Int32? {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var ok: Int32
        if ipv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            inet_pton(AF_INET6, address, &a.sin6_addr)
            ok = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            inet_pton(AF_INET, address, &a.sin_addr)
            ok = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        if ok != 0 {
            close(fd)
            return nil
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `enough` holds for what arrived, the peer closes, or the read times out.
    static func read(_ fd: Int32, until enough: (String) -> Bool = { _ in false }) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
            if enough(String(decoding: data, as: UTF8.self)) { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// One request with `Connection: close`: the status code and the whole response.
    static func get(_ target: String, port: UInt16, host: String? = nil) -> (status: Int, response: String)? {
        guard let fd = connect("127.0.0.1", port) else { return nil }
        defer { close(fd) }
        send(fd, "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n")
        let response = read(fd)
        let status = response.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, response)
    }
}

/// `citypack preview`: the request-target guard on its own, then the server as a process (plain HTTP, no browser),
/// then the page in headless chromium.
@Suite(.serialized) struct PreviewTests {
    /// A temporary copy of the example city and an output folder beside it.
    static func monacoCopy(_ name: String) throws -> (city: URL, output: URL) {
        let tmp = try TestPaths.temporaryDirectory(name)
        let city = tmp.appendingPathComponent("monaco")
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("inputs/monaco"), to: city)
        return (city, tmp.appendingPathComponent("outputs"))
    }

    /// The running server: every traversal variant sent raw is refused (and nothing of /etc/passwd or the
    /// sources leaks), a foreign Host is refused, and the pack, page, state and reader are served.
    @Test func serverRefusesPathsOutsideItsFolders() throws {
        let (city, output) = try Self.monacoCopy("preview-http")
        let preview = try RunningCitypack(["preview", city.path, "--output", output.path, "--port", "0"])
        let port = try #require(preview.previewPort(), "no URL printed; stderr:\n\(preview.stderr.suffix(3000))")
        #expect(preview.stdout.contains("Previewing Monaco at http://127.0.0.1:\(port)/"))
        for target in PreviewTargets.traversals {
            let r = try #require(RawHTTP.get(target, port: port), "no answer to \(target)")
            #expect(r.status == 403 || r.status == 404, "\(target) → \(r.status)")
            #expect(!r.response.contains("root:") && !r.response.contains("<osm") && !r.response.contains("bbox:"), "\(target) leaked:\n\(r.response.prefix(500))")
        }
        // A request for another host name (DNS rebinding) is refused.
        #expect(RawHTTP.get("/state.json", port: port, host: "attacker.example:\(port)")?.status == 403)
        #expect(RawHTTP.get("/", port: port)?.status == 200)
        #expect(RawHTTP.get("/preview.js", port: port)?.status == 200)
        let style = try #require(RawHTTP.get("/preview.css", port: port))
        #expect(style.status == 200 && style.response.contains("text/css") && style.response.contains(".problem"))
        let manifest = try #require(RawHTTP.get("/pack/manifest.json", port: port))
        #expect(manifest.status == 200 && manifest.response.contains("\"dataVersion\""))
        let state = try #require(RawHTTP.get("/state.json", port: port))
        #expect(state.status == 200 && state.response.contains("\"status\":\"passed\""))
        // The reader is the repository's file, byte for byte.
        let reader = try #require(RawHTTP.get("/citypack.js", port: port))
        let file = try String(contentsOf: TestPaths.root.appendingPathComponent("clients/web/citypack.js"), encoding: .utf8)
        #expect(reader.status == 200 && reader.response.hasSuffix(file))
        #expect(preview.terminate() == 0)
    }

    /// Bound to 127.0.0.1 only: the kernel's socket table says so, and other loopback addresses (127.0.0.2, ::1)
    /// are refused on the same port.
    @Test func listensOnLoopbackOnly() throws {
        let (city, output) = try Self.monacoCopy("preview-loopback")
        let preview = try RunningCitypack(["preview", city.path, "--output", output.path, "--port", "0"])
        let port = try #require(preview.previewPort(), "no URL printed; stderr:\n\(preview.stderr.suffix(3000))")
        let tcp = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let hexPort = String(format: "%04X", port)
        let listening = tcp.split(separator: "\n").filter { $0.contains(":\(hexPort) ") && $0.split(separator: " ")[3] == "0A" }
        #expect(listening.count == 1 && listening.allSatisfy { $0.split(separator: " ")[1] == "0100007F:\(hexPort)" }, "\(listening)")
        let tcp6 = (try? String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8)) ?? ""
        #expect(!tcp6.split(separator: "\n").contains { $0.contains(":\(hexPort) ") && $0.split(separator: " ")[3] == "0A" })
        if let fd = RawHTTP.connect("127.0.0.1", port) { close(fd) } else { Issue.record("127.0.0.1 refused") }
        if let fd = RawHTTP.connect("127.0.0.2", port) { close(fd); Issue.record("127.0.0.2 accepted") }
        if let fd = RawHTTP.connect("::1", port, ipv6: true) { close(fd); Issue.record("::1 accepted") }
        #expect(preview.terminate() == 0)
    }

    /// Event-stream clients that go away mid-stream (closed, or reset) neither crash nor wedge the server: it
    /// rebuilds and tells the pages still there, and answers new requests.
    @Test func survivesClientsDroppingTheEventStream() throws {
        let (city, output) = try Self.monacoCopy("preview-sse")
        let preview = try RunningCitypack(["preview", city.path, "--output", output.path, "--port", "0"])
        let port = try #require(preview.previewPort(), "no URL printed; stderr:\n\(preview.stderr.suffix(3000))")
        func openStream() -> Int32? {
            guard let fd = RawHTTP.connect("127.0.0.1", port) else { return nil }
            RawHTTP.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
            return fd
        }
        for i in 0..<20 {
            let fd = try #require(openStream())
            let head = RawHTTP.read(fd) { $0.contains("event: hello") }
            #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("text/event-stream") && head.contains("event: hello"), "\(head)")
            if i % 2 == 1 {  // every other one is reset rather than closed
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            }
            close(fd)
        }
        // One page that stays, and one that sent its request and left before reading anything.
        let staying = try #require(openStream())
        _ = RawHTTP.read(staying) { $0.contains("event: hello") }
        if let gone = openStream() { close(gone) }
        // A change: the server rebuilds, writes to every stream (the dead ones fail), and goes on.
        let cards = city.appendingPathComponent("editorial/cards.csv")
        try (String(contentsOf: cards, encoding: .utf8) + "\n").write(to: cards, atomically: true, encoding: .utf8)
        let event = RawHTTP.read(staying) { $0.contains("event: build") }
        #expect(event.contains("event: build\ndata: {\"build\":2}"), "\(event.suffix(300)); stderr:\n\(preview.stderr.suffix(2000))")
        close(staying)
        let state = try #require(RawHTTP.get("/state.json", port: port))
        #expect(state.status == 200 && state.response.contains("\"build\":2"))
        #expect(RawHTTP.get("/", port: port)?.status == 200)
        #expect(preview.process.isRunning)
        #expect(preview.terminate() == 0, "\(preview.stderr.suffix(2000))")
        #expect(preview.stderr.contains("citypack: stopped"))
    }

    /// A port already taken: the preview says so and exits 74 (after its first build).
    @Test func portInUseExits74() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        let port = UInt16(bigEndian: a.sin_port)
        let (city, output) = try Self.monacoCopy("preview-port")
        let preview = try RunningCitypack(["preview", city.path, "--output", output.path, "--port", String(port)])
        let status = preview.wait(300) { preview.process.isRunning ? nil : preview.process.terminationStatus }
        #expect(status == 74, "\(preview.stderr.suffix(2000))")
        #expect(preview.stderr.contains("citypack: error: cannot listen on 127.0.0.1:\(port)"))
    }

    /// The page in headless chromium (clients/web/test-support/preview-browser.mjs, over the DevTools protocol):
    /// edits to the sources show up without a reload — a renamed POI in the search results, a new error in the
    /// problem list beside the last good pack — the map keeps its view, and a screenshot is saved.
    @Test(.needs(OutsideTools.node), .needs(OutsideTools.chromium))
    func pageFollowsEditsInChromium() throws {
        let node = try OutsideTools.node.require()
        let shots = try TestPaths.temporaryDirectory("preview-screenshot")
        let result = try WebFlavourTests.run(
            node, ["clients/web/test-support/preview-browser.mjs"],
            environment: ["CITYPACK_BIN": CLIRunner.binary.path, "CHROMIUM": HTMLReportTests.chromium ?? "", "CITYPACK_SCREENSHOT_DIR": shots.path],
            timeout: 900)
        for line in result.output.split(separator: "\n") where line.hasPrefix("PREVIEW") { print(line) }
        #expect(result.status == 0, "\(result.output.suffix(6000))")
        #expect(result.output.contains("PREVIEW ok"))
        let png = shots.appendingPathComponent("citypack-preview.png")
        let bytes = try Data(contentsOf: png)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 10_000, "screenshot \(png.path): \(bytes.count) bytes")
    }
}

/// `citypack build --watch`: after the first build, each rebuild prints only the new and the fixed diagnostics
/// and a summary line.
@Suite(.serialized) struct BuildWatchTests {
    @Test func reportsNewAndFixedProblems() throws {
        let (city, output) = try PreviewTests.monacoCopy("build-watch")
        let watch = try RunningCitypack(["build", "--watch", city.path, "--output", output.path])
        let watching = watch.wait(300) { watch.stderr.contains("citypack: watching") ? true : nil }
        #expect(watching == true, "\(watch.stderr.suffix(3000))")
        #expect(watch.stderr.contains("built monaco:"), "the first build prints what build prints")
        // Add an error: a waypoint naming a POI that does not exist.
        let waypoints = city.appendingPathComponent("editorial/route_waypoints.csv")
        let original = try String(contentsOf: waypoints, encoding: .utf8)
        try (original + "rocher,6,n999999999,,,,,,,\n").write(to: waypoints, atomically: true, encoding: .utf8)
        let added = watch.wait(300) { Self.change(after: "\nnew: ", in: watch.stderr) }
        let first = try #require(added, "\(watch.stderr.suffix(3000))")
        #expect(first.hasPrefix("new: ") && first.contains("route_waypoints.csv:12:") && first.contains(": error: ") && first.contains("[editorial.route_unknown_poi]"), "\(first)")
        #expect(first.contains("\nrebuilt monaco in ") && first.contains(": 1 new, 0 fixed; 1 error, ") && first.contains("no pack written, the previous one stays"), "\(first)")
        // Only the change is printed: none of the warnings the first build listed come back.
        let afterFirst = watch.stderr.components(separatedBy: "citypack: watching").last ?? ""
        #expect(!afterFirst.contains("[osm.poi_missing_name]"), "\(afterFirst)")
        // Fix it.
        try original.write(to: waypoints, atomically: true, encoding: .utf8)
        let fixed = watch.wait(300) { Self.change(after: "\nfixed: ", in: watch.stderr) }
        let second = try #require(fixed, "\(watch.stderr.suffix(3000))")
        #expect(second.hasPrefix("fixed: ") && second.contains("route_waypoints.csv:12:") && second.contains("[editorial.route_unknown_poi]"), "\(second)")
        #expect(second.contains(": 0 new, 1 fixed; 0 errors, 20 warnings") && second.contains("pack data version 1"), "\(second)")  // 20: an unnamed train platform kept since issue 32
        #expect(watch.terminate(interrupt: true) == 0, "Ctrl-C stops it")
        #expect(watch.stderr.hasSuffix("citypack: stopped\n"))
    }

    /// From the first line starting with `marker` (after its newline) to the end of the summary line that follows it;
    /// nil until that summary line is complete.
    static func change(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker),
            let summary = text.range(of: "\nrebuilt monaco in ", range: start.upperBound..<text.endIndex),
            let end = text.range(of: "\n", range: summary.upperBound..<text.endIndex)
        else { return nil }
        return String(text[text.index(after: start.lowerBound)..<end.upperBound])
    }

    @Test func watchTakesOneCity() throws {
        let r = try CLIRunner.run(["build", "--watch", "inputs/monaco", "inputs/monaco"])
        #expect(r.status == 64 && r.stderr.contains("--watch builds one city"), "\(r.stderr)")
    }

    /// The delta matches findings by fingerprint: a row moved down (a new line number) is neither new nor fixed.
    @Test func deltaIgnoresLineShifts() {
        func d(_ line: Int, _ code: String = "editorial.x", entity: String? = "rocher#6") -> Diagnostic {
            Diagnostic(.error, code: code, message: "m", at: SourceLocation(file: "/c/e.csv", line: line, column: 1), entity: entity)
        }
        let moved = DiagnosticDelta(from: [d(3)], to: [d(5)], root: "/c")
        #expect(moved.isEmpty)
        let changed = DiagnosticDelta(from: [d(3), d(4, "editorial.y")], to: [d(3), d(9, "editorial.z")], root: "/c")
        #expect(changed.new.map(\.code) == ["editorial.z"] && changed.fixed.map(\.code) == ["editorial.y"])
        let twice = DiagnosticDelta(from: [d(3)], to: [d(3), d(4)], root: "/c")
        #expect(twice.new.count == 1 && twice.fixed.isEmpty)
    }
}
