import Foundation
import CityPackSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program and measures it: wall time and its own peak resident set size.
///
/// The measurement goes through `citypack-rusage`, a small C program built beside `citypack` whose only job is
/// to start the program, wait for it and report its rusage. Spawning the program from this process would be
/// wrong on Linux: exec records the peak of the address space it replaces, and posix_spawn starts the child in
/// the parent's, so every child's `ru_maxrss` would be floored at citypack's own high-water mark (xmllint and
/// osmium read as 24 MB where `/usr/bin/time -v` gives 5–15 MB). The spawner's own peak is about a megabyte.
/// Sampling `/proc/<pid>/status` VmHWM instead would miss a peak reached between the last sample and exit.
package enum ChildProcess {
    package struct Measurement {
        package var status: Int32
        package var seconds: Double
        /// Peak RSS in bytes; nil when it could not be measured on its own (no `citypack-rusage`).
        package var peakRSS: Int?
    }

    /// Finds `name` on `PATH`.
    package static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The spawner's name; it is looked for beside the running executable.
    package static let spawnerName = "citypack-rusage"

    /// `citypack-rusage` beside this executable (in a test run: beside the test bundle, in the same build folder).
    package static var spawner: String? {
        var candidates: [String] = []
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent(spawnerName).path)
            // A test bundle on Linux is `.build/<config>/X.xctest`; on macOS its executable is deeper inside.
            var dir = exe.deletingLastPathComponent()
            while dir.path != "/" && !dir.lastPathComponent.hasSuffix(".xctest") && dir.pathComponents.count > 2 {
                dir = dir.deletingLastPathComponent()
            }
            if dir.lastPathComponent.hasSuffix(".xctest") {
                candidates.append(dir.deletingLastPathComponent().appendingPathComponent(spawnerName).path)
            }
        }
        let argv0 = CommandLine.arguments.first ?? ""
        if argv0.contains("/") {
            candidates.append((PathText.parent(argv0) as NSString).appendingPathComponent(spawnerName))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments`, stdout and stderr sent to /dev/null, through `spawner` (default: the
    /// one beside this executable; without one the program is started directly and its peak RSS is nil).
    package static func measure(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], spawner: String? = Self.spawner
    ) -> Measurement? {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        guard let spawner else {
            guard let (status, seconds) = spawn(executable, arguments, environment: env, reportPipe: nil) else { return nil }
            return Measurement(status: status, seconds: seconds, peakRSS: nil)
        }
        // Close-on-exec, so no other program started meanwhile (by another thread) inherits the write end and
        // holds the read below open; posix_spawn's dup2 onto descriptor 3 gives the spawner a copy without it.
        // (pipe2 with O_CLOEXEC is not visible from Swift's Glibc; a spawn landing between the two calls only
        // delays this read until that program ends.)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let spawned = spawn(spawner, [executable] + arguments, environment: env, reportPipe: fds[1])
        close(fds[1])
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n > 0 { text.append(contentsOf: buffer[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            break
        }
        close(fds[0])
        guard let (status, outerSeconds) = spawned else { return nil }
        let fields = Self.fields(String(decoding: text, as: UTF8.self))
        guard let code = fields["status"].flatMap({ Int32($0) }) else {
            return status == 127 ? nil : Measurement(status: status, seconds: outerSeconds, peakRSS: nil)
        }
        let seconds = fields["wall_ns"].flatMap { Double($0) }.map { $0 / 1e9 } ?? outerSeconds
        let rss = fields["maxrss_kb"].flatMap { Int($0) }.map { $0 * 1024 }
        return Measurement(status: code, seconds: seconds, peakRSS: rss)
    }

    /// A peak RSS in MiB (2^20 bytes) for a table column `width` wide, or "n/a" right-aligned when it was not measured.
    package static func megabytes(_ bytes: Int?, width: Int = 12) -> String {
        let text = bytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "n/a"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `key=value` pairs of the spawner's report line.
    package static func fields(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let eq = pair.firstIndex(of: "=") else { continue }
            result[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        return result
    }

    /// Starts `executable` (stdout and stderr to /dev/null; `reportPipe`, when given, as its descriptor 3) and
    /// waits for it: exit code (128 + signal when killed) and wall seconds.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], reportPipe: Int32?
    ) -> (Int32, Double)? {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let reportPipe { posix_spawn_file_actions_adddup2(&actions, reportPipe, 3) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitCode, seconds)
    }
}
