import Foundation
import Testing

/// Record modes (`RECORD_GOLDENS=1`, `RECORD_ANSWERS=1`) rewrite fixtures from what the code produces now. A run
/// that records has checked nothing, so it must never pass: every recording records an issue that says so.
/// `RecordModeTests` checks that no test reads a `RECORD_…` variable except through this type.
public enum RecordMode {
    /// Rewrites every golden file (diagnostic formats, the Monaco pack, copy tables).
    public static let goldens = "RECORD_GOLDENS"
    /// Rewrites the search and nearby answers of `Tests/Fixtures/answers/`.
    public static let answers = "RECORD_ANSWERS"

    /// Whether `variable` is set to 1.
    public static func isOn(_ variable: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }

    /// Records the issue of a recording: `what` was rewritten; review the diff and rerun without `variable`.
    public static func recorded(_ what: String, by variable: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(
            "fixtures re-recorded (\(what)); review the diff, then rerun without \(variable)", sourceLocation: sourceLocation)
    }
}
