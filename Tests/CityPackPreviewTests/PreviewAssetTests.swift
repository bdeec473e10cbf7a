import CityPackPreview
import CityPackTestSupport
import Foundation
import Testing

/// The preview page is real files (Sources/CityPackPreview/Assets/), embedded in the binary by
/// scripts/embed-assets.py: the embedded text is the folder's, byte for byte, and the script passes a linter.
@Suite struct PreviewAssetTests {
    static let folder = TestPaths.root.appendingPathComponent("Sources/CityPackPreview/Assets")

    /// Run `scripts/embed-assets.py Sources/CityPackPreview/Assets Sources/CityPackPreview/PreviewPage+Files.swift
    /// PreviewPage` after editing an asset.
    @Test func embeddedFilesAreTheAssetsFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(PreviewPage.files.keys) == Set(names))
        for (name, text) in PreviewPage.files {
            let onDisk = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(text == onDisk, "\(name) differs from Assets/\(name): run scripts/embed-assets.py")
        }
    }

    /// The page links the style sheet and the script the server serves.
    @Test func pageLinksItsStyleAndScript() {
        #expect(PreviewPage.html.contains(#"<link rel="stylesheet" href="/preview.css">"#))
        #expect(PreviewPage.html.contains(#"<script type="module" src="/preview.js"></script>"#))
        #expect(PreviewPage.style.contains(".problem"))
        #expect(PreviewPage.script.hasPrefix("import { openPack } from '/citypack.js';"))
    }

    /// `node --check` parses the script as the module it is (copied to `.mjs`: node reads a `.js` with imports
    /// leniently).
    @Test(.needs(OutsideTools.node)) func scriptParsesAsAModule() throws {
        let tmp = try TestPaths.temporaryDirectory("preview-assets")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let copy = tmp.appendingPathComponent("preview.mjs")
        try Data(PreviewPage.script.utf8).write(to: copy)
        let r = try OutsideTools.node.run(["--check", copy.path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Debian's eslint with scripts/eslint.json (eslint:recommended for a browser module). NODE_PATH lets it find
    /// its Debian modules under a node that is not Debian's (NodeSource's).
    @Test(.needs(OutsideTools.eslint)) func scriptPassesESLint() throws {
        let r = try ProcessRun.run(
            URL(fileURLWithPath: try OutsideTools.eslint.require()),
            ["--no-eslintrc", "--no-ignore", "-f", "unix", "-c", "scripts/eslint.json", "Sources/CityPackPreview/Assets/preview.js"],
            environment: ["NODE_PATH": "/usr/share/nodejs"], cwd: TestPaths.root)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }
}
