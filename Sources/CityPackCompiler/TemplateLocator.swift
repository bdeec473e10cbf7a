import Foundation

/// Finds the `templates/` folder: an explicit path (`citypack` passes `--templates`, else `$CITYPACK_TEMPLATES`), the
/// nearest `templates/` above the city directory or the current directory, then the one beside the executable's
/// checkout, and last the templates built into the tool (``BuiltInTemplates``), written under the cache folder the
/// caller names.
package enum TemplateLocator {
    static let marker = "categories.json"

    /// The templates folder for a city.
    /// - Parameters:
    ///   - explicit: A folder named by the user (`--templates`, `$CITYPACK_TEMPLATES`); used as it is.
    ///   - cityPath: The city folder or file, where the search upwards starts.
    ///   - builtInCache: The cache folder the built-in templates may be written under (the CLI's
    ///     `$XDG_CACHE_HOME`, else `~/.cache`); nil: no built-in fallback.
    /// - Returns: The folder, or nil when none is found.
    package static func locate(explicit: String?, cityPath: String, builtInCache: String? = nil) -> String? {
        if let explicit { return explicit }
        var starts = [
            URL(fileURLWithPath: cityPath).standardizedFileURL,
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        ]
        if let exe = Bundle.main.executableURL { starts.append(exe.resolvingSymlinksInPath()) }
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("templates")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
                    return candidate.path
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return builtInCache.flatMap(BuiltInTemplates.materialize(under:))
    }

    /// How to name the templates a build used: `built into citypack` or the folder.
    package static func describe(_ path: String) -> String {
        BuiltInTemplates.isBuiltIn(path) ? "the templates built into citypack" : path
    }
}
