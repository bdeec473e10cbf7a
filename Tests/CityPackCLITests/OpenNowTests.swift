import CityPackTestSupport
import Foundation
import Testing

/// "Food near me at 23:30" (issue 37): opening hours parsed by the build, evaluated in the city's time zone, every
/// category a place is, and the time zone itself, on the bundled Monaco.
@Suite(.serialized) struct OpenNowTests {
    static func results(_ args: [String]) throws -> [[String: Any]] {
        let r = try CLIRunner.runBinary(args + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try CLIRunner.json(r.stdout)["results"] as? [[String: Any]] ?? []
    }

    @Test func openAtKeepsOpenPlacesAndEveryRowSaysWhenItChanges() throws {
        let output = try TestPaths.temporaryDirectory("open-now")
        defer { try? FileManager.default.removeItem(at: output) }
        let built = try CLIRunner.runBinary(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        try #require(built.status == 0, "\(built.stderr)")
        let pack = output.appendingPathComponent("monaco").path
        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("monaco/manifest.json"), encoding: .utf8))
        #expect((manifest["city"] as? [String: Any])?["timezone"] as? String == "Europe/Monaco", "from addr:country=MC")

        let near = ["query", pack, "--search", "restaurant", "--near", "43.7384,7.4246", "--limit", "40"]
        let all = try Self.results(near + ["--open-at", "2026-11-28 23:30"])
        #expect(!all.isEmpty && all.allSatisfy { $0["open"] as? String == "open" }, "\(all)")
        // Every open row says when it closes, in Monaco's winter offset.
        #expect(all.allSatisfy { ($0["next_change"] as? String)?.hasSuffix("+01:00") == true }, "\(all)")
        #expect(all.allSatisfy { $0["opening_hours"] is String })
        // Without the filter the same search lists closed places and places without hours too.
        let everything = try Self.results(["query", pack, "--search", "restaurant", "--near", "43.7384,7.4246", "--limit", "40"])
        #expect(Set(everything.compactMap { $0["open"] as? String }).isSuperset(of: ["unknown"]))
        // The pharmacy G. Marsan: "Mo-Fr 07:30-20:00; Sa 08:30-20:00; Su 09:00-15:00".
        let sunday = try Self.results(["query", pack, "--near", "43.7327453,7.4189942", "--radius", "5", "--category", "pharmacy", "--open-at", "2026-11-29 10:00"])
        #expect(sunday.first?["next_change"] as? String == "2026-11-29T15:00+01:00", "\(sunday)")
        let sundayNight = try Self.results(["query", pack, "--near", "43.7327453,7.4189942", "--radius", "5", "--category", "pharmacy", "--open-at", "2026-11-29 16:00"])
        #expect(sundayNight.isEmpty, "closed on Sunday after 15:00")
        // Summer time: the offset moves with the date.
        let july = try Self.results(["query", pack, "--near", "43.7327453,7.4189942", "--radius", "5", "--category", "pharmacy", "--open-at", "2026-07-06 12:00"])
        #expect(july.first?["next_change"] as? String == "2026-07-06T20:00+02:00", "\(july)")
        // A bad time is a usage error.
        #expect(try CLIRunner.runBinary(["query", pack, "--near", "43.73,7.42", "--open-at", "tomorrow"]).status == 64)
    }

    /// `init` writes the city's zone into the city file (from the coordinates and the POIs' `addr:country`), a
    /// build carries it, and an edited `timezone:` wins; a zone tzdata does not know is a located error.
    @Test func initWritesTheTimeZoneAndTheCityFileOverridesIt() throws {
        let tmp = try TestPaths.temporaryDirectory("open-now-zone")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("monaco")
        let osm = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz").path
        #expect(try CLIRunner.runBinary(["init", city.path, "--osm", osm]).status == 0)
        let file = city.appendingPathComponent("city.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\ntimezone: Europe/Monaco "), "\(text)")
        try text.replacingOccurrences(of: "timezone: Europe/Monaco", with: "timezone: Asia/Tokyo").write(to: file, atomically: true, encoding: .utf8)
        let output = tmp.appendingPathComponent("out")
        #expect(try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"]).status == 0)
        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("monaco/manifest.json"), encoding: .utf8))
        #expect((manifest["city"] as? [String: Any])?["timezone"] as? String == "Asia/Tokyo")
        try text.replacingOccurrences(of: "timezone: Europe/Monaco", with: "timezone: Europe/Atlantis").write(to: file, atomically: true, encoding: .utf8)
        let bad = try CLIRunner.runBinary(["check", city.path])
        #expect(bad.status == 1 && bad.stderr.contains("'timezone' must be an IANA time zone"), "\(bad.stderr)")
        #expect(bad.stderr.contains("city.yaml:"), "located in the city file")
    }

    @Test func aPlaceIsEveryCategoryItMatchesMainFirst() throws {
        let output = try TestPaths.temporaryDirectory("open-now-categories")
        defer { try? FileManager.default.removeItem(at: output) }
        let built = try CLIRunner.runBinary(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        try #require(built.status == 0, "\(built.stderr)")
        let pack = output.appendingPathComponent("monaco").path
        let wheelchair = try Self.results(["query", pack, "--search", "wheelchair", "--near", "43.7384,7.4246"])
        #expect(!wheelchair.isEmpty)
        for row in wheelchair {
            let categories = row["categories"] as? [String] ?? []
            #expect(categories.first == row["category"] as? String && categories.contains("wheelchair"), "\(row)")
            #expect(row["category"] as? String != "wheelchair", "an attribute is never the main category")
        }
        let distances = wheelchair.compactMap { $0["distance_m"] as? Double }
        #expect(distances == distances.sorted())
        // The reader's language first: in English "bar" lists bars (the cafés Italian calls bars only after them);
        // in Italian both; Swedish "mat" (food) and "apotek" find food and pharmacies.
        let english = try Self.results(["query", pack, "--search", "bar", "--near", "43.7384,7.4246", "--limit", "12", "--locale", "en"])
        #expect(!english.isEmpty && english.allSatisfy { ($0["categories"] as? [String] ?? []).contains("bar") }, "\(english)")
        let italian = try Self.results(["query", pack, "--search", "bar", "--near", "43.7384,7.4246", "--limit", "12", "--locale", "it"])
        #expect(italian.contains { !($0["categories"] as? [String] ?? []).contains("bar") }, "\(italian)")
        let food = try Self.results(["query", pack, "--search", "mat", "--near", "43.7384,7.4246", "--limit", "10", "--locale", "sv"])
        #expect(!food.isEmpty && food.allSatisfy { !Set($0["categories"] as? [String] ?? []).isDisjoint(with: ["restaurant", "cafe", "fast_food"]) }, "\(food)")
        let apotek = try Self.results(["query", pack, "--search", "apotek", "--near", "43.7384,7.4246", "--limit", "5", "--locale", "sv"])
        #expect(!apotek.isEmpty && apotek.allSatisfy { $0["category"] as? String == "pharmacy" }, "\(apotek)")
        // Places with Wi-Fi are found by "wifi" whatever else they are (a restaurant, a hotel).
        let wifi = try Self.results(["query", pack, "--search", "wifi", "--near", "43.7384,7.4246", "--limit", "50"])
        #expect(wifi.contains { ($0["category"] as? String) != "wifi" }, "\(wifi)")
    }
}
