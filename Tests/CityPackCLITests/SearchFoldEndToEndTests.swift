import CityPackFormat
import CityPackTestSupport
import Foundation
import Testing

/// Every letter of ``SearchFold/table`` searched through a built pack (issue 40): `Tests/Fixtures/fold/map.osm`
/// holds one café per letter, named `Kaf<letter>wort`. Searching the folded spelling (`kafsswort`) and the letter
/// itself (`Kafßwort`) both find that café, through `citypack query --search`; `clients/web/test/fold.test.mjs`
/// searches the same pack the same way with the JS reader, whose table is generated from Swift's.
@Suite struct SearchFoldEndToEndTests {
    @Test func everyFoldedLetterIsFoundByBothSpellings() throws {
        let work = try TestPaths.temporaryDirectory("fold-letters")
        defer { try? FileManager.default.removeItem(at: work) }
        let osm = TestPaths.root.appendingPathComponent("Tests/Fixtures/fold/map.osm").path
        let city = work.appendingPathComponent("inputs/fold").path
        let initialised = try CLIRunner.runBinary(["init", city, "--osm", osm, "--id", "fold", "--locales", "de,en"], cwd: work)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let built = try CLIRunner.runBinary(["build", city, "--output", "outputs", "--quiet"], cwd: work)
        #expect(built.status == 0, "\(built.stderr)")
        let letters = SearchFold.table.map(\.0)
        #expect(letters.count >= 25)
        for (index, (letter, folded)) in SearchFold.table.enumerated() {
            let osmID = "n\(1000 + index)"
            for query in ["kaf\(folded)wort", "Kaf\(letter)wort"] {
                let result = try CLIRunner.runBinary(
                    ["query", "outputs/fold/manifest.json", "--search", query, "--format", "json"], cwd: work)
                #expect(result.status == 0, "\(result.stderr)")
                let found = (try CLIRunner.json(result.stdout)["results"] as? [[String: Any]] ?? []).compactMap { $0["osm"] as? String }
                #expect(found.contains(osmID), "searching \(query) does not find Kaf\(letter)wort (\(osmID)): \(found)")
            }
        }
    }
}
