import Foundation

/// Locations tests need: the repository root and the shared real data beside it.
public enum TestPaths {
    /// Repository root (two levels above this file's folder).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` beside the clone, if present.
    public static var sharedData: URL? {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// A new empty temporary directory.
    public static func temporaryDirectory(_ name: String = "citypack-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
