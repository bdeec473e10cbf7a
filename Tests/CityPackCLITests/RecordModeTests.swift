import CityPackTestSupport
import Foundation
import Testing

/// A record mode that passes would let a rewritten fixture land unreviewed: every test that records goes through
/// `RecordMode`, whose `recorded` records an issue, and no test reads a `RECORD_…` variable any other way.
@Suite struct RecordModeTests {
    static func swiftFiles(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" || $0.pathExtension == "mjs" }
    }

    @Test func everyRecordModeRecordsAnIssue() throws {
        var recorders = 0
        for folder in ["Tests", "clients/web"] {
            for file in Self.swiftFiles(under: TestPaths.root.appendingPathComponent(folder)) {
                if file.lastPathComponent == "RecordMode.swift" || file.lastPathComponent == "RecordModeTests.swift" { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("\"RECORD_") && !text.contains("'RECORD_") && !text.contains("env.RECORD_"),
                    "\(file.lastPathComponent) reads a RECORD_ variable itself; use RecordMode.isOn and RecordMode.recorded")
                let checks = text.components(separatedBy: "RecordMode.isOn(").count - 1
                if checks > 0 {
                    recorders += 1
                    #expect(text.components(separatedBy: "RecordMode.recorded(").count - 1 >= checks,
                        "\(file.lastPathComponent) records without RecordMode.recorded")
                }
            }
        }
        // The Monaco pack, the diagnostic formats, the copy tables, the answers, the JS reader's constants, the
        // fleet workflow examples, the build cache codec's encoded samples, the place-merge listings and the app
        // API listing.
        #expect(recorders == 9)
    }
}
