import Foundation

/// The default templates compiled into the tool (`BuiltInTemplates+Files.swift`, written by
/// `scripts/embed-templates.py` from `templates/`), for a `citypack` binary that runs away from its checkout.
///
/// The stages read templates from a folder (and the build cache hashes their files), so the built-in ones are
/// written once into a folder named by their content, `$XDG_CACHE_HOME/citypack/templates-<hash>` (else
/// `~/.cache/…`, else the temporary folder), and used from there. ``TemplateLocator`` falls back to it only when
/// neither `--templates`, `$CITYPACK_TEMPLATES` nor a `templates/` folder above the city, the working directory or
/// the executable is found. Thread-safe: the folder is written under a unique name and renamed into place.
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

    /// Where the built-in templates are (or would be) written.
    package static var folder: String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else if let home = environment["HOME"], !home.isEmpty {
            base = (home as NSString).appendingPathComponent(".cache")
        } else {
            base = NSTemporaryDirectory()
        }
        return ((base as NSString).appendingPathComponent("citypack") as NSString).appendingPathComponent("templates-\(contentHash)")
    }

    /// Whether `path` is the built-in templates' folder.
    package static func isBuiltIn(_ path: String) -> Bool {
        (path as NSString).standardizingPath == (folder as NSString).standardizingPath
    }

    /// The folder holding the built-in templates, written first if it is not there; nil when it cannot be written
    /// (then ``TemplateLocator`` finds no templates, as before).
    package static func materialize() -> String? {
        let target = folder
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
