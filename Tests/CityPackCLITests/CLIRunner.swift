import CityPackCLI
import CityPackTestSupport
import Foundation

/// Runs `citypack` and captures its exit code and output: in this process (``CityPackCommand/runInProcess(_:)``)
/// when it can, else the built binary beside the test bundle.
///
/// A run goes to the binary when it needs a process of its own: another environment or working directory,
/// `bench` (which times child processes of itself), the crash and kill hooks, or when the caller asks
/// (``runBinary(_:environment:cwd:)``: the end-to-end suites, which test the executable itself).
enum CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        let bundleDir = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        return bundleDir.appendingPathComponent("citypack")
    }

    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Result {
        let ownProcess = !environment.isEmpty || cwd != nil || arguments.first == "bench"
            || arguments.contains { $0.hasPrefix("--debug-fault") || $0.hasPrefix("--test-step-delay") }
            || FileManager.default.currentDirectoryPath != TestPaths.root.path
        if ownProcess { return try runBinary(arguments, environment: environment, cwd: cwd) }
        let (status, stdout, stderr) = CityPackCommand.runInProcess(arguments)
        return Result(status: status, stdout: stdout, stderr: stderr)
    }

    /// Runs the built binary, always.
    @discardableResult
    static func runBinary(_ arguments: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Result {
        let r = try ProcessRun.run(binary, arguments, environment: environment, cwd: cwd ?? TestPaths.root)
        return Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

/// An independent scan of OSM XML for tagged nodes: a line-based reader that knows nothing of the
/// project's parser (used as the oracle in end-to-end tests).
enum OSMOracle {
    struct Node: Hashable {
        var id: Int64
        var lat: Double
        var lon: Double
    }

    /// Nodes with `amenity=<value>` for each requested value.
    static func amenityNodes(in file: URL, values: Set<String>) throws -> [String: [Node]] {
        let data: Data
        if file.pathExtension == "gz" {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/gzip")
            p.arguments = ["-dc", file.path]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
        } else {
            data = try Data(contentsOf: file)
        }
        let text = String(decoding: data, as: UTF8.self)
        let nodeStart = try NSRegularExpression(pattern: #"<node\s[^>]*"#)
        let attr = try NSRegularExpression(pattern: #"\b(id|lat|lon)=["']([^"']*)["']"#)
        let amenity = try NSRegularExpression(pattern: #"<tag\s+k=["']amenity["']\s+v=["']([^"']*)["']"#)
        var out: [String: [Node]] = [:]
        var current: Node?
        text.enumerateLines { line, _ in
            let ns = line as NSString
            let range = NSRange(location: 0, length: ns.length)
            if let m = nodeStart.firstMatch(in: line, range: range) {
                var id: Int64 = 0, lat = 0.0, lon = 0.0
                for a in attr.matches(in: line, range: m.range) {
                    let key = ns.substring(with: a.range(at: 1)), value = ns.substring(with: a.range(at: 2))
                    switch key {
                    case "id": id = Int64(value) ?? 0
                    case "lat": lat = Double(value) ?? 0
                    default: lon = Double(value) ?? 0
                    }
                }
                current = line.contains("/>") ? nil : Node(id: id, lat: lat, lon: lon)
            } else if line.contains("</node>") {
                current = nil
            } else if let node = current, let m = amenity.firstMatch(in: line, range: range) {
                let v = ns.substring(with: m.range(at: 1))
                if values.contains(v) { out[v, default: []].append(node) }
            }
        }
        return out
    }
}
