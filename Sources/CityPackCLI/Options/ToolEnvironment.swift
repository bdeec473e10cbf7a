import Foundation

/// The environment variables `citypack` honours. Only the CLI reads the environment; it hands each value to the
/// libraries as an option (``CityPackCompiler/BuildOptions``, ``CityPackFormat/TimeTrace/enable(destination:)``),
/// so a library behaves the same in an app, a test or a server whatever its process environment holds.
enum ToolEnvironment {
    private static var values: [String: String] { ProcessInfo.processInfo.environment }

    /// `SOURCE_DATE_EPOCH`: the build time (seconds since 1970) for reproducible builds; empty or not a number = unset.
    static var sourceDateEpoch: Int64? { values["SOURCE_DATE_EPOCH"].flatMap { Int64($0) } }

    /// `CITYPACK_THREADS`: how many threads decode PBF blocks (default: one per core); ignored unless positive.
    static var threads: Int? { values["CITYPACK_THREADS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } }

    /// `CITYPACK_TEMPLATES`: the templates folder when `--templates` is not given.
    static var templates: String? { values["CITYPACK_TEMPLATES"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `CITYPACK_TIME_TRACE`: `-` for a table of phase timings on stderr, else a Chrome trace-event JSON file.
    static var timeTrace: String? { values["CITYPACK_TIME_TRACE"].flatMap { $0.isEmpty ? nil : $0 } }
}
