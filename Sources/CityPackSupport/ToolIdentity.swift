/// The tool's name and version as artifacts record it (the manifest's `generator`, report.html's footer) and as
/// the build cache keys its entries with: a new version never reads an older version's cache entries.
package enum ToolIdentity {
    /// `citypack <version>`.
    package static let generator = "citypack 0.1.0"
}
