import CityPackCompiler
import CityPackSupport
import Foundation

/// The last report.html page, kept in the build cache (`<output>/.cache/<city>/report-html.entry`), so an
/// unchanged rebuild does not draw the city map (every POI, stop and line) again.
///
/// The page is made from the diagnostics report (what report.json holds) and the build's city, POIs, feeds and
/// walking routes, which are made from exactly what the emit stage's key covers (``BuildReport/emitKey``: every
/// input, setting and the tool's version). So the key is the SHA-256 of report.json's text, the emit key, the
/// generator and the page's assets. Used only by a build with a cache whose emit stage ran and that has no
/// errors; an entry that does not check out (``CacheFile``) is not used and is written again.
package struct HTMLReportMemo {
    /// The entry's name in the city's cache folder.
    package static let entry = "report-html"

    /// The entry file.
    package let path: String
    let scope: String
    let key: [UInt8]

    /// The memo for a finished build, or nil when its page may not come from the cache.
    /// - Parameters:
    ///   - json: report.json's text for this build.
    package init?(build: BuildReport, json: String, output: String, useCache: Bool, hasErrors: Bool) {
        guard useCache, !hasErrors, build.failure == nil, let emitKey = build.emitKey, let city = build.city?.id else { return nil }
        var text = "citypack report.html\u{0}\(ToolIdentity.generator)\u{0}\(emitKey)\u{0}"
        for asset in ["report.html", "report.css", "report.js"] { text += "\(asset)\u{0}\(ReportAssets.text(asset))\u{0}" }
        text += json
        key = FileDigest.sha256Bytes(of: Data(text.utf8))
        scope = city
        path = (((output as NSString).appendingPathComponent(".cache") as NSString).appendingPathComponent(city) as NSString)
            .appendingPathComponent("\(Self.entry).entry")
    }

    /// The page stored for this key; nil when there is none, or it is damaged.
    /// The page's bytes, written as they are (the entry's SHA-256 checked them; no text is made of them).
    package func load() -> Data? {
        guard case .payload(let data, let start, _) = CacheFile.read(path, scope: scope, name: Self.entry, key: key) else { return nil }
        return data.subdata(in: (data.startIndex + start)..<data.endIndex)
    }

    /// Stores `html` for this key (a failure only costs the next build the drawing).
    package func store(_ html: Data) {
        try? FileManager.default.createDirectory(atPath: PathText.parent(path), withIntermediateDirectories: true)
        _ = html.withUnsafeBytes { CacheFile.write(path, scope: scope, name: Self.entry, key: key, payload: $0) }
    }
}
