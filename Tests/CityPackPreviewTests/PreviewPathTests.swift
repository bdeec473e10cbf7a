import CityPackPreview
import CityPackTestSupport
import Foundation
import Testing

/// The preview server's request-target guard on its own (the running server: CityPackCLITests' PreviewTests).
@Suite struct PreviewPathTests {
    @Test(arguments: PreviewTargets.traversals)
    func guardRefusesTraversal(_ target: String) {
        let verdict = PreviewPath(target: target)
        #expect(verdict == .forbidden || verdict == .notFound, "\(target) → \(verdict)")
        if case .pack(let segments) = verdict { Issue.record("\(target) reached the pack folder as \(segments)") }
    }

    @Test func guardServesTheSiteAndThePack() throws {
        #expect(PreviewPath(target: "/") == .page)
        #expect(PreviewPath(target: "/preview.js") == .pageScript)
        #expect(PreviewPath(target: "/preview.css") == .pageStyle)
        #expect(PreviewPath(target: "/citypack.js") == .reader("citypack.js"))
        #expect(PreviewPath(target: "/journeys.js") == .reader("journeys.js"))
        // Any reader module by file name (lowercase letters, digits, dashes), not a fixed list; /preview.js stays the page's.
        #expect(PreviewPath(target: "/pack.js") == .reader("pack.js"))
        #expect(PreviewPath(target: "/journey-id.js") == .reader("journey-id.js"))
        #expect(PreviewPath(target: "/library2.js") == .reader("library2.js"))
        #expect(PreviewPath(target: "/Pack.js") == .notFound)
        #expect(PreviewPath(target: "/pack.mjs") == .notFound)
        #expect(PreviewPath(target: "/.js") == .forbidden)
        #expect(PreviewPath(target: "/web/pack.js") == .notFound)
        #expect(PreviewPath(target: "/pack_data.js") == .notFound)
        #expect(PreviewPath(target: "/state.json") == .state)
        #expect(PreviewPath(target: "/events") == .events)
        #expect(PreviewPath(target: "/pack/web/places.json.gz") == .pack(["web", "places.json.gz"]))
        #expect(PreviewPath(target: "/pack/manifest%2Ejson") == .pack(["manifest.json"]))
        #expect(PreviewPath(target: "/nothing") == .notFound)
        // A symbolic link inside the folder that points out of it is not followed.
        let tmp = try TestPaths.temporaryDirectory("preview-link")
        try Data("inside".utf8).write(to: tmp.appendingPathComponent("a.json"))
        try FileManager.default.createSymbolicLink(atPath: tmp.appendingPathComponent("out").path, withDestinationPath: "/etc")
        #expect(PreviewPath.file(["a.json"], under: tmp.path) != nil)
        #expect(PreviewPath.file(["out", "passwd"], under: tmp.path) == nil)
        #expect(PreviewPath.file(["missing.json"], under: tmp.path) == nil)
    }
}
