import CityPackCLI
import CityPackDevTools
import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// `citypack bench`'s nearby figures, measured on the bundled Monaco pack.
@Suite struct NearbyBenchmarkTests {
    @Test func reportsTimingsOnABuiltPack() throws {
        let output = try TestPaths.temporaryDirectory("bench-nearby")
        defer { try? FileManager.default.removeItem(at: output) }
        let build = try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let reader = try PackReader.open(manifest: output.appendingPathComponent("monaco/manifest.json"))
        defer { reader.close() }
        let bench = try #require(try NearbyBenchmark.measure(reader, radius: 25, queries: 200))
        #expect(bench.queries == 200)
        #expect(bench.meanResults >= 1)  // each query is centred on a POI or stop
        #expect(bench.medianNanoseconds > 0 && bench.bruteForceMedianNanoseconds > 0)
        #expect(bench.indexOnlyMedianNanoseconds > 0 && bench.sqlScanMedianNanoseconds > 0)
        #expect(bench.p90Nanoseconds >= bench.medianNanoseconds)
        #expect(NearbyBenchmark.percentile([5, 1, 3], 0.5) == 3)
    }
}
