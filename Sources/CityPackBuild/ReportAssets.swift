/// The files report.html inlines (its style sheet and script). They live as real files in
/// `Sources/CityPackBuild/Assets/`, where a linter sees them, and are embedded into the binary by
/// `scripts/embed-report-assets.py` (``files``), so nothing is loaded from a resource bundle at run time.
package enum ReportAssets {
    /// The text of the asset `name` (e.g. `report.css`), without its final line break.
    /// - Precondition: `name` is one of ``files`` (a missing asset is a build mistake, caught by ReportAssetsTests).
    package static func text(_ name: String) -> String {
        guard let file = files.first(where: { $0.name == name }) else {
            preconditionFailure("no report asset \(name): run scripts/embed-report-assets.py")
        }
        return file.text
    }
}
