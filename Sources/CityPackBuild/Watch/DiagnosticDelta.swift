import CityPackDiagnostics

/// What changed in a city's diagnostics between two builds, as a test runner's watch mode reports it: the
/// findings that are new and the ones that were fixed.
///
/// Findings are matched by their baseline fingerprint (rule code, file relative to the city folder, and the entity
/// — `n123`, `stop_id=S1`, `rocher#3` — or the message when there is none; never the line), so inserting rows
/// above a problem does not report it as fixed and new again. The same fingerprint may occur several times;
/// each occurrence is matched once.
package struct DiagnosticDelta: Equatable, Sendable {
    package var new: [Diagnostic] = []
    package var fixed: [Diagnostic] = []

    package var isEmpty: Bool { new.isEmpty && fixed.isEmpty }

    /// - Parameters:
    ///   - old: the previous build's diagnostics.
    ///   - current: this build's.
    ///   - root: the city folder (fingerprints use file names relative to it).
    package init(from old: [Diagnostic], to current: [Diagnostic], root: String) {
        var remaining: [String: Int] = [:]
        for d in old { remaining[d.fingerprint(root: root), default: 0] += 1 }
        var matched: [String: Int] = [:]
        for d in current {
            let key = d.fingerprint(root: root)
            if let n = remaining[key], n > 0 {
                remaining[key] = n - 1
                matched[key, default: 0] += 1
            } else {
                new.append(d)
            }
        }
        var used: [String: Int] = [:]
        for d in old {
            let key = d.fingerprint(root: root)
            used[key, default: 0] += 1
            if used[key]! > matched[key, default: 0] { fixed.append(d) }
        }
    }

    /// One line per change: `new: error: FILE:LINE:COL: MESSAGE [CODE]`, `fixed: warning: …`.
    package var lines: [String] {
        new.map { "new: " + Self.describe($0) } + fixed.map { "fixed: " + Self.describe($0) }
    }

    package static func describe(_ d: Diagnostic) -> String {
        let location = d.location.map { "\($0.description): " } ?? ""
        return "\(location)\(d.severity.rawValue): \(d.message) [\(d.code)]"
    }
}
