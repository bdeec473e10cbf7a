import Foundation

/// The default templates compiled into the tool (`BuiltInTemplates+Files.swift`, written by
/// `scripts/embed-templates.py` from `templates/`), for a `citypack` binary that runs away from its checkout.
///
/// The stages read templates from a folder (and the build cache hashes their files), so the built-in ones are
/// written once into a folder named by their content, `<cache>/citypack/templates-<hash>`, under a cache folder
/// the caller names (the CLI resolves `$XDG_CACHE_HOME`, else `~/.cache`, else the temporary folder: this module
/// reads no environment). ``TemplateLocator`` falls back to it only when neither `--templates`,
/// `$CITYPACK_TEMPLATES` nor a `templates/` folder above the city, the working directory or the executable is
/// found. Thread-safe: the folder is written under a unique name and renamed into place.
package enum BuiltInTemplates {
    /// FNV-1a (64-bit) of every path and text, in hex: names the folder, so a new tool version with other
    /// templates never reads an old folder.
    static var contentHash: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for (path, text) in files {
            for byte in path.utf8 + [0] + text.utf8 + [0] {
                h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(h, radix: 16)
    }

    /// The name of the folder the built-in templates are written to (by their content).
    static var folderName: String { "templates-\(contentHash)" }

    /// Where the built-in templates are (or would be) written under the cache folder `cacheRoot`.
    package static func folder(under cacheRoot: String) -> String {
        ((cacheRoot as NSString).appendingPathComponent("citypack") as NSString).appendingPathComponent(folderName)
    }

    /// Whether `path` is a folder of this tool's built-in templates (named by their content, wherever the cache is).
    package static func isBuiltIn(_ path: String) -> Bool {
        let standard = (path as NSString).standardizingPath as NSString
        return standard.lastPathComponent == folderName
            && (standard.deletingLastPathComponent as NSString).lastPathComponent == "citypack"
    }

    /// The folder holding the built-in templates under the cache folder `cacheRoot`, written first if it is not
    /// there; nil when it cannot be written (then ``TemplateLocator`` finds no templates, as before).
    package static func materialize(under cacheRoot: String) -> String? {
        let target = folder(under: cacheRoot)
        let fm = FileManager.default
        if files.allSatisfy({ fm.fileExists(atPath: (target as NSString).appendingPathComponent($0.path)) }) { return target }
        let parent = (target as NSString).deletingLastPathComponent
        let staging = (parent as NSString).appendingPathComponent(".templates-\(getpid())-\(UUID().uuidString)")
        do {
            for (path, text) in files {
                let file = (staging as NSString).appendingPathComponent(path)
                try fm.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            }
            if rename(staging, target) != 0 {
                // Another process put the same files there first, or an incomplete folder is in the way.
                try? fm.removeItem(atPath: staging)
                if !files.allSatisfy({ fm.fileExists(atPath: (target as NSString).appendingPathComponent($0.path)) }) {
                    try? fm.removeItem(atPath: target)
                    return nil
                }
            }
            return target
        } catch {
            try? fm.removeItem(atPath: staging)
            return nil
        }
    }
}
