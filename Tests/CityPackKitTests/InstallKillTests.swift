import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// `citypack install` killed (SIGKILL) at random moments of first downloads and updates (issues 30 and 42; the
/// campaign: ``KillCampaign``): each time the last good version opens, the next start removes what the killed run
/// left but a partial download with its resume record, the city shows as paused with the bytes kept, and the next
/// install goes on from them: it fetches no more than the bytes not yet verified plus the manifest (or its patch).
@Suite(.serialized) struct InstallKillTests {
    /// The `citypack` binary beside the test bundle (what `swift build` built).
    static let binary = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("citypack")
    static var binaryBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    static func size(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func lines(_ url: URL) -> [String] {
        (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Runs an install; once it has logged its first step, waits `delay` seconds and kills it unless it finished.
    static func run(_ arguments: [String], log: URL, delay: Double?) throws -> (killed: Bool, status: Int32, stdout: String, seconds: Double) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning && lines(log).isEmpty { usleep(1000) }
        let start = Date()
        var killed = false
        if let delay {
            usleep(UInt32(delay * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (killed && process.terminationReason == .uncaughtSignal, process.terminationStatus,
            String(decoding: stdout, as: UTF8.self), Date().timeIntervalSince(start))
    }

    @Test(.enabled(if: FaultServer.available, FaultServer.reason), .enabled(if: binaryBuilt, "needs the citypack binary (swift build)"))
    func fiftyRandomKillsNeverLoseTheInstalledCity() async throws {
        let fixture = try LibraryFixture.get()
        let subject = KillSubject(served: fixture.served, city: "monaco", publicKey: fixture.publicKey, publicKeyFile: fixture.publicKeyFile, probe: "pharmacie")
        let seed = UInt64(ProcessInfo.processInfo.environment["CITYPACK_KILL_SEED"] ?? "") ?? 20_261_126
        let (phases, summary) = try await KillCampaign(subject: subject, kinds: [.delta, .full, .first], kills: 51, seed: seed).run()
        print(summary)
        #expect((phases["download"] ?? 0) > 0 && (phases["apply"] ?? 0) > 0 && (phases["after-switch"] ?? 0) > 0, "\(phases)")
    }

    /// Milan (OSM and ATM's GTFS from ../shared/data, a pack ~7× Monaco's): 30 kills during first downloads and 30
    /// during updates by delta and manifest patch.
    @Test(.needsSharedData, .enabled(if: FaultServer.available, FaultServer.reason), .enabled(if: binaryBuilt, "needs the citypack binary (swift build)"))
    func sixtyRandomKillsOfMilanNeverLoseTheInstalledCity() async throws {
        let subject = try MilanReleases.subject()
        let seed = UInt64(ProcessInfo.processInfo.environment["CITYPACK_KILL_SEED"] ?? "") ?? 20_261_128
        var campaign = KillCampaign(subject: subject, kinds: [.first, .delta], kills: 60, seed: seed)
        campaign.throttle = 5_000
        let (phases, summary) = try await campaign.run()
        print(summary)
        #expect((phases["download"] ?? 0) >= 20, "\(phases)")
    }
}
