import Foundation

/// Where a build's templates come from: a folder (`templates/`, `--templates DIR`, a city's `profile:` folder), or
/// the templates built into the tool (``BuiltInTemplates``), which are served from memory — nothing is written to
/// disk for them. Readers ask it for a file's bytes by its path relative to the templates (`categories.json`,
/// `copy/en.yaml`), list a subfolder, and name a file in diagnostics (``path(_:)``).
///
/// A value type; thread-safe.
public struct TemplateSource: Sendable, Hashable, CustomStringConvertible {
    /// The folder, or nil for the built-in templates.
    public let folder: String?
    /// For the built-in templates, the subfolder this source stands for (`""`, or `copy/`).
    let builtInFolder: String

    /// The templates in the folder `path`.
    public static func folder(_ path: String) -> TemplateSource { TemplateSource(folder: path, builtInFolder: "") }

    /// The templates built into the tool.
    public static let builtIn = TemplateSource(folder: nil, builtInFolder: "")

    /// The same templates' subfolder `name` (`copy`) as a source of its own.
    public func subfolder(_ name: String) -> TemplateSource {
        if let folder { return .folder((folder as NSString).appendingPathComponent(name)) }
        return TemplateSource(folder: nil, builtInFolder: builtInFolder + name + "/")
    }

    /// Whether these are the built-in templates.
    public var isBuiltIn: Bool { folder == nil }

    /// How a file of these templates is named in diagnostics and reports: its path in the folder, or
    /// `<built-in templates>/<relative>` for a built-in one.
    public func path(_ relative: String) -> String {
        if let folder { return (folder as NSString).appendingPathComponent(relative) }
        return "\(Self.builtInPrefix)/\(builtInFolder)\(relative)"
    }

    /// The prefix of ``path(_:)`` for built-in files.
    public static let builtInPrefix = "<built-in templates>"

    /// The bytes of the file at `relative`, or nil when there is none (or it cannot be read).
    public func contents(_ relative: String) -> Data? {
        guard let folder else { return BuiltInTemplates.byPath[builtInFolder + relative].map { Data($0.utf8) } }
        return FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(relative))
    }

    /// The size in bytes of the file at `relative`, or nil when there is none.
    public func size(_ relative: String) -> Int? {
        guard let folder else { return BuiltInTemplates.byPath[builtInFolder + relative]?.utf8.count }
        let attributes = try? FileManager.default.attributesOfItem(atPath: (folder as NSString).appendingPathComponent(relative))
        return attributes?[.size] as? Int
    }

    /// The names of the files directly in the subfolder `relative` (`""`: this source's own folder), sorted; empty
    /// when it does not exist.
    public func files(in relative: String = "") -> [String] {
        guard let folder else {
            let prefix = builtInFolder + (relative.isEmpty ? "" : relative + "/")
            return BuiltInTemplates.files.map(\.path)
                .filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
                .map { String($0.dropFirst(prefix.count)) }.sorted()
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: (folder as NSString).appendingPathComponent(relative))) ?? []
        return names.sorted()
    }

    /// The folder, or "the templates built into citypack".
    public var description: String { folder ?? "the templates built into citypack" }

    /// What the build cache keys these templates by: nil for a folder (the caller hashes its files), the built-in
    /// templates' content hash and subfolder for the built-in ones.
    public var builtInKey: String? { folder == nil ? "built-in \(builtInFolder) \(BuiltInTemplates.contentHash)" : nil }
}

/// The default templates compiled into the tool (`BuiltInTemplates+Files.swift`, written by
/// `scripts/embed-templates.py` from `templates/`), served by ``TemplateSource/builtIn`` to a `citypack` binary that
/// runs away from its checkout: read from memory, never written anywhere.
public enum BuiltInTemplates {}

extension BuiltInTemplates {
    /// ``files`` by path.
    static let byPath: [String: String] = Dictionary(files.map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })

    /// FNV-1a (64-bit) of every path and text, in hex: what the build cache keys the built-in templates by.
    public static let contentHash: String = {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for (path, text) in files {
            for byte in path.utf8 + [0] + text.utf8 + [0] {
                h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(h, radix: 16)
    }()
}
