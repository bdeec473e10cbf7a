import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit

/// What to build or check and with which settings: everything `citypack build` and `citypack check` take from
/// their command line and the environment, as plain values (``BuildSession``).
package struct BuildRequest: Sendable {
    /// The city directory (holding city.yaml) or city file.
    package var city: String
    /// The templates folder; nil: discovered (``CityPackCompiler/TemplateLocator``).
    package var templates: String?
    /// The output root: the pack goes to `<output>/<city>/`, the reports too.
    package var output: String
    /// True for `build` (write the pack), false for `check` (reports only).
    package var emit: Bool
    /// `--werror`: warnings count as errors.
    package var warningsAsErrors = false
    /// `--rule` settings: code → severity, nil for off (already checked against ``RuleCatalog``).
    package var ruleSettings: [String: Severity?] = [:]
    /// A baseline file whose entries silence known findings; nil: none.
    package var baseline: String?
    /// Where to write a baseline of every finding of this run; nil: none.
    package var writeBaseline: String?
    /// The emitter's options (versions kept, signing key, …). Default: ``CityPackEmit/EmitOptions/init()``.
    package var release = EmitOptions()
    /// Read and write the build cache (`<output>/.cache/<city>/`). Default: true.
    package var useCache = true
    /// Threads decoding PBF blocks; nil: one per core.
    package var threads: Int?
    /// The build time for reproducible builds (seconds since 1970); nil: now.
    package var sourceDateEpoch: Int64?
    /// Called from the stages as they progress; nil: no progress.
    package var progress: (@Sendable (ProgressEvent) -> Void)?

    /// A request with the default settings.
    package init(city: String, templates: String? = nil, output: String = "outputs", emit: Bool = true) {
        self.city = city
        self.templates = templates
        self.output = output
        self.emit = emit
    }

    /// `build` or `check`: the command the reports name.
    package var command: String { emit ? "build" : "check" }

    /// The compiler's options for this request.
    package var buildOptions: BuildOptions {
        var options = BuildOptions(
            cityPath: city, outputDirectory: output, templatesDirectory: templates, emit: emit,
            warningsAsErrors: warningsAsErrors, sourceDateEpoch: sourceDateEpoch)
        options.threads = threads
        options.useCache = useCache
        options.release = release
        // The build stats' size breakdown, measured by the emitter on the staged database while it compresses.
        options.release.measureSizes = true
        options.progress = progress
        return options
    }
}
