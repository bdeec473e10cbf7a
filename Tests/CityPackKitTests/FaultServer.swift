import CityPackTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `node clients/web/test-support/fault-server.mjs --root DIR` as a child process: Debian's nginx behind the
/// fault-injecting proxy (docs: the file's header). Started and stopped by the test that uses it.
final class FaultServer: @unchecked Sendable {
    static let script = TestPaths.root.appendingPathComponent("clients/web/test-support/fault-server.mjs")
    static let nginx = OutsideTools.nginx.path
    /// Whether the server can run here; the reason otherwise.
    static var available: Bool { OutsideTools.node.path != nil && nginx != nil && FileManager.default.fileExists(atPath: script.path) }
    static let reason: Comment = "needs node, nginx (apt-get install nodejs nginx-light; .ci/run installs them) and clients/web/test-support/fault-server.mjs"

    let process = Process()
    let stdin = Pipe()
    /// The proxy's base URL (faults apply here).
    let proxy: URL

    init(root: URL) throws {
        let node = try OutsideTools.node.require()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = [Self.script.path, "--root", root.path]
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        var line = Data()
        while true {
            let byte = stdout.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: String], let proxy = object["proxy"].flatMap(URL.init(string:))
        else {
            process.terminate()
            throw LibraryFixture.FixtureError(description: "the fault server did not start: \(String(decoding: line, as: UTF8.self))")
        }
        self.proxy = proxy
    }

    /// Closes the server's stdin (it stops nginx and exits) and waits for it.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One control request to the proxy.
    @discardableResult
    func control(_ method: String, _ path: String, json: Any? = nil) async throws -> Any? {
        var request = URLRequest(url: proxy.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        if let json { request.httpBody = try JSONSerialization.data(withJSONObject: json) }
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
        return data.isEmpty ? nil : try JSONSerialization.jsonObject(with: data)
    }

    func setFaults(_ rules: [[String: Any]]) async throws { try await control("PUT", "/__faults", json: rules) }

    /// The proxied requests since the last clear.
    func log() async throws -> [[String: Any]] { try await control("GET", "/__log") as? [[String: Any]] ?? [] }

    func reset() async throws {
        try await control("DELETE", "/__faults")
        try await control("DELETE", "/__log")
        try await control("POST", "/__start-upstream")
    }
}
