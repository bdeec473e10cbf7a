import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

struct ProfileSpecCase: Codable, Sendable, CustomTestStringConvertible {
    var tags: [String: String]
    var expected: String?
    /// Further categories (`also` rules), when any.
    var also: [String]?
    var testDescription: String {
        tags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "+") + " → \(expected ?? "nil")"
            + (also.map { " also \($0.joined(separator: ","))" } ?? "")
    }
}

private struct ProfileSpec: Codable {
    var cases: [ProfileSpecCase]
}

private let specCases: [ProfileSpecCase] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/profile-spec.json")
    guard let data = try? Data(contentsOf: url), let spec = try? JSONDecoder().decode(ProfileSpec.self, from: data)
    else { return [] }
    return spec.cases
}()

@Suite struct TemplatePOIProfileTests {
    @Test func specFileIsLoaded() {
        #expect(specCases.count >= 30)
    }

    @Test(arguments: specCases)
    func classifies(_ c: ProfileSpecCase) {
        #expect(OSMTest.profile.classify(tags: c.tags) == c.expected)
        if let primary = c.expected {
            #expect(OSMTest.profile.alsoCategories(tags: c.tags, primary: primary) == (c.also ?? []))
        }
    }

    /// Every element the spec classifies has a tag that `classificationRelevance` covers (readers may skip the
    /// tags of elements without one), and elements without such a tag are not classified.
    @Test(arguments: specCases)
    func classificationRelevanceCoversClassifiedElements(_ c: ProfileSpecCase) {
        let p = OSMTest.profile
        let covered = c.tags.contains { p.classificationRelevance(ofKey: $0.key).covers($0.value) }
        if c.expected != nil { #expect(covered) }
        if !covered { #expect(p.classify(tags: c.tags) == nil) }
    }

    @Test func classificationRelevanceByKeyAndValue() {
        let p = OSMTest.profile
        #expect(p.classificationRelevance(ofKey: "source") == .never)
        #expect(p.classificationRelevance(ofKey: "opening_hours") == .never)  // kept for output, never classifies
        #expect(p.classificationRelevance(ofKey: "amenity").covers("toilets"))
        #expect(!p.classificationRelevance(ofKey: "amenity").covers("parking_space"))
        #expect(!p.classificationRelevance(ofKey: "highway").covers("residential"))
    }

    @Test func categoriesHaveLabelsAndSynonyms() {
        let categories = OSMTest.profile.categories
        #expect(categories.map(\.priority) == categories.map(\.priority).sorted())
        for c in categories {
            for locale in TemplatePOIProfile.requiredLocales { #expect(c.labels[locale] != nil, "\(c.id) \(locale)") }
            #expect(!(c.synonyms["en"] ?? []).isEmpty, "\(c.id)")
        }
        let toilet = categories.first { $0.id == "toilet" }
        #expect(toilet?.synonyms["sv"]?.contains("vessa") == true)
        #expect(toilet?.synonyms["en"]?.contains("restroom") == true)
        #expect(categories.first { $0.id == "atm" }?.synonyms["de"]?.contains("geldautomat") == true)
        #expect(categories.first { $0.id == "metro" }?.synonyms["de"]?.contains("u-bahn") == true)
    }

    @Test func keepsRuleKeysAndExposedTagsOnly() {
        let p = OSMTest.profile
        #expect(p.keeps(tag: "amenity") && p.keeps(tag: "station") && p.keeps(tag: "opening_hours"))
        #expect(p.keeps(tag: "addr:housenumber") && p.exposes(tag: "addr:housenumber"))
        #expect(!p.exposes(tag: "amenity") && !p.keeps(tag: "source") && !p.keeps(tag: "building"))
    }

    private func load(categories: String, synonyms: String = #"{"format":1,"synonyms":{}}"#) throws -> TemplatePOIProfile {
        let dir = try TestPaths.temporaryDirectory("profile")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(categories.utf8).write(to: dir.appendingPathComponent("categories.json"))
        try Data(synonyms.utf8).write(to: dir.appendingPathComponent("synonyms.json"))
        return try TemplatePOIProfile.load(templatesDirectory: dir)
    }

    static let labels = #"{"en":"A","fr":"A","de":"A","it":"A","es":"A","ru":"A"}"#

    @Test(arguments: [
        (#"{"format":1,"exposed_tags":[],"categories":[{"id":"a","priority":1}]}"#, "categories.json", "missing key"),
        (#"{"format":1,"exposed_tags":[],"categories":[ ]"#, "categories.json", "not valid JSON"),
        (#"{"format":2,"exposed_tags":[],"categories":[]}"#, "categories.json", "unsupported format"),
        (#"{"format":1,"exposed_tags":[],"categories":[{"id":"a","priority":1,"labels":\#(labels),"rules":[{}]}]}"#,
         "categories.json", "at least one key"),
        (#"{"format":1,"exposed_tags":[],"categories":[{"id":"a","priority":1,"labels":{"en":"A"},"rules":[{"k":"v"}]}]}"#,
         "categories.json", "missing labels"),
        (#"{"format":1,"exposed_tags":[],"categories":[{"id":"a","priority":1,"labels":\#(labels),"rules":[{"k":"v"}]},{"id":"a","priority":2,"labels":\#(labels),"rules":[{"k":"w"}]}]}"#,
         "categories.json", "duplicate"),
    ])
    func invalidCategoriesAreReportedWithPath(_ json: String, _ file: String, _ fragment: String) {
        do {
            _ = try load(categories: json)
            Issue.record("loaded invalid profile")
        } catch let error as ProfileLoadError {
            #expect(error.path.hasSuffix(file))
            #expect(error.reason.contains(fragment), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func synonymsForUnknownCategoryAreRejected() {
        let categories =
            #"{"format":1,"exposed_tags":[],"categories":[{"id":"a","priority":1,"labels":\#(Self.labels),"rules":[{"k":"*"}]}]}"#
        #expect(throws: ProfileLoadError.self) {
            try load(categories: categories, synonyms: #"{"format":1,"synonyms":{"b":{"en":["x"]}}}"#)
        }
        let ok = try? load(categories: categories, synonyms: #"{"format":1,"synonyms":{"a":{"en":["x"]}}}"#)
        #expect(ok?.classify(tags: ["k": "anything"]) == "a")
    }

    @Test func missingDirectoryIsAnError() {
        #expect(throws: ProfileLoadError.self) {
            try TemplatePOIProfile.load(templatesDirectory: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}
