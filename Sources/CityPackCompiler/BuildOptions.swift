import CityPackCache
import CityPackEmit
import Foundation

/// What to build and how. Set by the CLI; the compiler never reads arguments or prints.
package struct BuildOptions: Sendable {
    /// City directory or its `city.yaml`.
    package var cityPath: String
    /// Output root; packs go to `<output>/<city-id>/`.
    package var outputDirectory: String
    /// Folder holding `categories.json` and `synonyms.json`; nil = discover (see ``TemplateLocator``).
    package var templatesDirectory: String?
    /// False for `check`: run every stage but emit.
    package var emit: Bool
    /// Treat warnings as errors.
    package var warningsAsErrors: Bool
    /// Fixed build time (seconds since 1970; `citypack` passes `SOURCE_DATE_EPOCH`); nil = the data's newest
    /// timestamp. Also the date feeds are checked against when ``buildDate`` is nil.
    package var sourceDateEpoch: Int64?
    /// Threads that decode PBF blocks; nil = one per core (`citypack` passes `CITYPACK_THREADS`).
    package var threads: Int?
    /// The date feeds are checked against (expired calendars); nil = ``sourceDateEpoch``'s date, else today (UTC).
    package var buildDate: (year: Int, month: Int, day: Int)?
    /// Receives progress events; called from the building thread.
    package var progress: (@Sendable (ProgressEvent) -> Void)?
    /// Use the build cache (`<output>/.cache/<city-id>/`, see ``StageCache``): a stage whose inputs are unchanged
    /// loads its previous result instead of running. False (`--no-cache`) neither reads nor writes it. Fleet builds
    /// do not use it (their OSM reads are shared between cities).
    package var useCache = true
    /// Release options: kept previous versions and the signing key (docs/RELEASES.md).
    package var release: EmitOptions = EmitOptions()

    package init(
        cityPath: String, outputDirectory: String = "outputs", templatesDirectory: String? = nil, emit: Bool = true,
        warningsAsErrors: Bool = false, sourceDateEpoch: Int64? = nil,
        progress: (@Sendable (ProgressEvent) -> Void)? = nil
    ) {
        self.cityPath = cityPath
        self.outputDirectory = outputDirectory
        self.templatesDirectory = templatesDirectory
        self.emit = emit
        self.warningsAsErrors = warningsAsErrors
        self.sourceDateEpoch = sourceDateEpoch
        self.progress = progress
    }
}

/// A progress report from a long stage.
package struct ProgressEvent: Sendable {
    /// Stage name, e.g. `ingest`.
    package var stage: String
    /// What is being worked on (a file name).
    package var item: String
    /// Units done and total (bytes for OSM ingest, rows for GTFS tables); total 0 when unknown.
    package var done: Int64
    package var total: Int64
    /// `B` for bytes, `rows` for table rows.
    package var unit: String = "B"
}
