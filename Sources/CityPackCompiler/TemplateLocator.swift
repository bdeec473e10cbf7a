import CityPackIngest
import Foundation

/// Finds the templates: an explicit folder (`citypack` passes `--templates`, else `$CITYPACK_TEMPLATES`), the
/// nearest `templates/` above the city directory or the current directory, then the one beside the executable's
/// checkout, and last the templates built into the tool (``CityPackIngest/TemplateSource/builtIn``, read from
/// memory: nothing is written for them).
package enum TemplateLocator {
    static let marker = "categories.json"

    /// The templates for a city.
    /// - Parameters:
    ///   - explicit: A folder named by the user (`--templates`, `$CITYPACK_TEMPLATES`); used as it is.
    ///   - cityPath: The city folder or file, where the search upwards starts.
    /// - Returns: The folder found, else the built-in templates.
    package static func locate(explicit: String?, cityPath: String) -> TemplateSource {
        if let explicit { return .folder(explicit) }
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
                    return .folder(candidate.path)
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return .builtIn
    }
}
