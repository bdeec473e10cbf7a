import Foundation

/// What the preview server makes of a request target, before any file is touched: the page's own resources,
/// a file of the city's outputs (`/pack/…`), or a refusal.
///
/// The target is judged as sent (FlyingFox's `request.path` is already resolved, so `/a/../b` would arrive as
/// `/b` and a traversal would go unnoticed): it must be origin-form (`/…`, not `http://…` or `//host`), and after
/// percent-decoding — repeated, so `%252e%252e` is decoded twice — it must hold no `..` or `.` segment, no
/// hidden segment (`.cache`, `.lock`), no backslash (raw or `%5c`), no NUL or other control character and no
/// empty segment. Anything else is `.forbidden` (403); a path of the right form that names nothing is
/// `.notFound` (404). Pure; thread-safe.
package enum PreviewPath: Equatable {
    case page
    case pageStyle
    case pageScript
    /// A module of the web reader beside `clients/web/citypack.js`, by file name: any `/<name>.js` whose name is
    /// lowercase ASCII letters, digits and dashes (``isReaderModule(_:)``) — `citypack.js` itself and the modules
    /// it imports (`pack.js`, `search.js`, `journeys.js`, …); the server answers 404 when no such file is there.
    /// `/preview.js` is the page's script, not a module of the reader.
    case reader(String)
    case state
    case events
    /// A file under the city's output folder, as path segments (each checked).
    case pack([String])
    case notFound
    case forbidden

    package init(target rawPath: String) {
        // Only origin-form targets; the query has been split off by the caller.
        guard rawPath.hasPrefix("/"), !rawPath.hasPrefix("//") else { self = .forbidden; return }
        var decoded = rawPath
        for _ in 0..<4 {
            guard decoded.contains("%") else { break }
            guard let next = decoded.removingPercentEncoding else { self = .forbidden; return }
            decoded = next
        }
        if decoded.contains("%") || Self.hasForbiddenScalars(rawPath) || Self.hasForbiddenScalars(decoded) {
            self = .forbidden
            return
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if segments.contains(where: { $0.hasPrefix(".") }) { self = .forbidden; return }
        switch decoded {
        case "/", "/index.html": self = .page; return
        case "/preview.css": self = .pageStyle; return
        case "/preview.js": self = .pageScript; return
        case "/state.json": self = .state; return
        case "/events": self = .events; return
        default:
            if Self.isReaderModule(decoded) { self = .reader(String(decoded.dropFirst())); return }
        }
        guard segments.count >= 2, segments[0] == "pack" else { self = .notFound; return }
        let rest = Array(segments.dropFirst())
        guard !rest.contains(where: \.isEmpty) else { self = .notFound; return }
        self = .pack(rest)
    }

    /// Whether a decoded target names a module of the web reader: `/<name>.js`, the name one or more lowercase ASCII
    /// letters, digits and dashes (so no dot, slash or other segment can be part of it).
    package static func isReaderModule(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.hasSuffix(".js") else { return false }
        let name = path.dropFirst().dropLast(3)
        return !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            let v = scalar.value
            return (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) || v == 0x2D
        }
    }

    /// Backslashes (a Windows separator some servers honour), NUL and other control characters.
    package static func hasForbiddenScalars(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
            || text.lowercased().contains("%5c") || text.contains("%00")
    }

    /// The file `segments` name under `root`, if it is a regular file there once symbolic links are resolved
    /// (a link pointing out of the folder is refused).
    package static func file(_ segments: [String], under root: String) -> URL? {
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL
        var url = base
        for s in segments { url.appendPathComponent(s) }
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL
        guard resolved.path.hasPrefix(base.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return resolved
    }
}
