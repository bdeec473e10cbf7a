import Foundation
import Testing

// @testable: unit tests of the command line's internal renderers (the terminal's colour decision, ProgressLine).
@testable import CityPackCLI

/// Units of the terminal: colour decisions and the progress text. (The renderers' units are in
/// CityPackBuildTests/DiagnosticRenderingTests.)
@Suite struct RenderingTests {
    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Terminal.useColour(isTTY: true, environment: [:]))
        #expect(!Terminal.useColour(isTTY: false, environment: [:]))
        #expect(!Terminal.useColour(isTTY: true, environment: ["NO_COLOR": "1"]))
        #expect(Terminal.useColour(isTTY: true, environment: ["NO_COLOR": ""]))
        #expect(!Terminal.useColour(isTTY: true, environment: ["TERM": "dumb"]))
    }

    @Test func progressTextHasRateAndETA() {
        let text = ProgressLine.format(
            stage: "ingest", item: "map.osm", done: 50 << 20, total: 200 << 20, seconds: 5, unit: "B", width: 10)
        #expect(text == "ingest map.osm [##........]  25%  50.0/200.0 MB  10.0 MB/s  ETA 15s")
        let rows = ProgressLine.format(stage: "ingest", item: "stop_times.txt", done: 120_000, total: 0, seconds: 2, unit: "rows", width: 10)
        #expect(rows == "ingest stop_times.txt  120k rows  60k rows/s")
        #expect(ProgressLine.duration(185) == "3m05s")
        #expect(ProgressLine.duration(3720) == "1h02m")
    }
}
