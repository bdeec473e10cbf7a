import CityPackEmit
import Foundation

/// What to build and how. Set by the CLI; the compiler never reads arguments or prints.
public struct BuildOptions: Sendable {
    /// City directory or its `city.yaml`.
    public var cityPath: String
    /// Output root; packs go to `<output>/<city-id>/`.
    public var outputDirectory: String
    /// Folder holding `categories.json` and `synonyms.json`; nil = discover (see ``TemplateLocator``).
    public var templatesDirectory: String?
    /// False for `check`: run every stage but emit.
    public var emit: Bool
    /// Treat warnings as errors.
    public var warningsAsErrors: Bool
    /// Fixed build time (seconds since 1970; `citypack` passes `SOURCE_DATE_EPOCH`); nil = the data's newest
    /// timestamp. Also the date feeds are checked against when ``buildDate`` is nil.
    public var sourceDateEpoch: Int64?
    /// Threads that decode PBF blocks; nil = one per core (`citypack` passes `CITYPACK_THREADS`).
    public var threads: Int?
    /// The date feeds are checked against (expired calendars); nil = ``sourceDateEpoch``'s date, else today (UTC).
    public var buildDate: (year: Int, month: Int, day: Int)?
    /// Receives progress events; called from the building thread.
    public var progress: (@Sendable (ProgressEvent) -> Void)?
    /// Use the build cache (`<output>/.cache/<city-id>/`, see ``StageCache``): a stage whose inputs are unchanged
    /// loads its previous result instead of running. False (`--no-cache`) neither reads nor writes it. Fleet builds
    /// do not use it (their OSM reads are shared between cities).
    public var useCache = true
    /// Release options: kept previous versions and the signing key (docs/RELEASES.md).
    public var release: EmitOptions = EmitOptions()

    public init(
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
public struct ProgressEvent: Sendable {
    /// Stage name, e.g. `ingest`.
    public var stage: String
    /// What is being worked on (a file name).
    public var item: String
    /// Units done and total (bytes for OSM ingest, rows for GTFS tables); total 0 when unknown.
    public var done: Int64
    public var total: Int64
    /// `B` for bytes, `rows` for table rows.
    public var unit: String = "B"
}
