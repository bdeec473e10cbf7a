import Foundation

/// The page `citypack preview` serves (`/`), its style sheet (`/preview.css`) and its script (`/preview.js`): the
/// files of `Sources/CityPackPreview/Assets/`, built into the binary by `scripts/embed-assets.py`
/// (`PreviewPage+Files.swift`; PreviewAssetTests checks it is up to date and lints the script).
///
/// No framework, no network beyond the preview server: the map is SVG (drawn from the web pack's places and routes, the state's bbox and GTFS lines),
/// search and nearby are `CityPack.search` / `CityPack.nearby` of `clients/web/citypack.js` on the web flavour
/// just built, and `/events` (server-sent events) tells the page when a build ended: it then reads
/// `/state.json`, reopens the pack when a new one was written, redraws in place (the map keeps its view) and
/// repeats the current search and nearby query.
///
/// For tests and people alike, `<body>` carries `data-build` (the build shown), `data-pack-build` (the build whose
/// pack is open) and `data-ready`.
package enum PreviewPage {
    /// `clients/web/citypack.js`, looked for above the templates folder, the working directory and the executable
    /// (a checkout's layout; the reader is not compiled in, so the page always runs the file the JS tests test).
    package static func locateReader(templates: String?) -> String? {
        var starts: [URL] = []
        if let templates { starts.append(URL(fileURLWithPath: templates).standardizedFileURL) }
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        if let exe = Bundle.main.executableURL { starts.append(exe.resolvingSymlinksInPath()) }
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("clients/web/citypack.js")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }
}

extension PreviewPage {
    /// `/` (`Assets/preview.html`).
    package static var html: String { files["preview.html"] ?? "" }
    /// `/preview.css` (`Assets/preview.css`).
    package static var style: String { files["preview.css"] ?? "" }
    /// `/preview.js` (`Assets/preview.js`).
    package static var script: String { files["preview.js"] ?? "" }
}
