import CityPackDevTools
import CityPackTestSupport
import Foundation
import Testing

// @testable: unit tests of ChildProcess, the command line's internal process runner.
@testable import CityPackCLI

/// `citypack bench` measures other tools through `citypack-rusage`: each child's peak RSS must be its own, not
/// floored at the (large) peak of the process that started it.
@Suite struct ChildProcessTests {
    /// This process's peak RSS in bytes (VmHWM), on Linux.
    static func ownPeakRSS() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    @Test func spawnerIsBuiltBesideTheBinaries() throws {
        let spawner = try #require(ChildProcess.spawner, "citypack-rusage is not beside the test bundle")
        #expect(spawner.hasSuffix("/citypack-rusage"))
    }

    @Test func smallChildOfABigParentReportsItsOwnPeak() throws {
        // Hold and touch 256 MB, so this process's high-water mark is far above the child's.
        let size = 256 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        memset(block, 0x5A, size)
        let parent = try #require(Self.ownPeakRSS())
        #expect(parent >= 200 << 20, "the parent holds only \(parent >> 20) MB")
        let m = try #require(ChildProcess.measure("/bin/true", []))
        #expect(m.status == 0)
        let rss = try #require(m.peakRSS, "no peak RSS: citypack-rusage not found")
        #expect(rss > 0 && rss < 50 << 20, "/bin/true reported \(rss >> 20) MB under a \(parent >> 20) MB parent")
        #expect(block.load(fromByteOffset: size - 1, as: UInt8.self) == 0x5A)
    }

    @Test func bigChildReportsItsPeak() throws {
        // dd holds one 96 MiB block, written to while it is read from /dev/zero.
        let m = try #require(ChildProcess.measure("/bin/dd", ["if=/dev/zero", "of=/dev/null", "bs=96M", "count=1"]))
        #expect(m.status == 0)
        let rss = try #require(m.peakRSS)
        #expect(rss >= 96 << 20 && rss < 140 << 20, "dd bs=96M reported \(rss >> 20) MB")
        #expect(m.seconds > 0 && m.seconds < 60)
    }

    @Test func exitCodesAndSignals() throws {
        #expect(ChildProcess.measure("/bin/sh", ["-c", "exit 3"])?.status == 3)
        let killed: Int32? = ChildProcess.measure("/bin/sh", ["-c", "kill -9 $$"])?.status
        #expect(killed == Int32(128 + SIGKILL), "status \(String(describing: killed))")
        #expect(ChildProcess.measure("/nonexistent/program", []) == nil)
        // Without the spawner the program still runs, but its peak is not claimed.
        let direct = try #require(ChildProcess.measure("/bin/sh", ["-c", "exit 4"], spawner: nil))
        #expect(direct.status == 4 && direct.peakRSS == nil)
    }

    @Test func reportLineFields() {
        let f = ChildProcess.fields("status=0 wall_ns=1500 maxrss_kb=2048 utime_us=1 stime_us=2\n")
        #expect(f["status"] == "0" && f["wall_ns"] == "1500" && f["maxrss_kb"] == "2048")
        #expect(ChildProcess.megabytes(nil, width: 5) == "  n/a")
        #expect(ChildProcess.megabytes(3 << 20, width: 5) == "  3.0")
    }
}
