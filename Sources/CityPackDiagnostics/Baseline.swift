import CityPackSupport
import Foundation

/// Known problems to silence: a list of diagnostic fingerprints, written by `citypack check --write-baseline`
/// and read back by `--baseline`.
///
/// A fingerprint is the SHA-256 of the rule code, the file (relative to the city folder) and the entity key
/// (`w123`, `stop_id=S1`) — never of a line number — so a baseline survives edits that move rows and
/// elements around. Diagnostics that carry no entity are fingerprinted on their message instead.
/// The same fingerprint may appear several times; each entry silences one occurrence.
public struct Baseline: Sendable, Codable, Equatable {
    /// One silenced finding. Everything but `fingerprint` is there for people reading the file.
    public struct Entry: Sendable, Codable, Equatable, Hashable {
        public var fingerprint: String
        public var code: String
        public var file: String?
        public var entity: String?
        public var message: String

        public init(fingerprint: String, code: String, file: String?, entity: String?, message: String) {
            self.fingerprint = fingerprint
            self.code = code
            self.file = file
            self.entity = entity
            self.message = message
        }
    }

    /// Format version of the baseline file; readers refuse other values.
    public static let currentVersion = 1

    public var version: Int
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.version = Self.currentVersion
        self.entries = entries.sorted { ($0.file ?? "", $0.code, $0.entity ?? "", $0.fingerprint) < ($1.file ?? "", $1.code, $1.entity ?? "", $1.fingerprint) }
    }

    /// Why a baseline file could not be used.
    public enum LoadError: Error, Equatable {
        /// No such file, or it cannot be read.
        case unreadable
        /// Not a baseline of ``currentVersion``.
        case notABaseline
    }

    /// Reads a baseline file written by `--write-baseline`.
    public static func load(path: String) throws(LoadError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable }
        guard let decoded = try? JSONDecoder().decode(Baseline.self, from: data), decoded.version == currentVersion else {
            throw .notABaseline
        }
        return decoded
    }

    /// A baseline that silences every diagnostic given.
    /// - Parameters:
    ///   - diagnostics: the findings to record.
    ///   - root: the city folder; file names in fingerprints are relative to it.
    public init(silencing diagnostics: [Diagnostic], root: String) {
        self.init(entries: diagnostics.map { d in
            Entry(
                fingerprint: d.fingerprint(root: root), code: d.code,
                file: d.location.map { Diagnostic.relativeFile($0.file, root: root) }, entity: d.entity, message: d.message)
        })
    }
}

extension Diagnostic {
    /// Version tag of the fingerprint recipe; part of SARIF's `partialFingerprints` key.
    public static let fingerprintVersion = "citypack/v1"

    /// A stable identity for this finding: hex SHA-256 (first 128 bits) of `code`, the file relative to
    /// `root`, and the entity key (or the message when there is no entity), separated by NUL bytes.
    /// Line and column never take part, so moving a row keeps the fingerprint.
    public func fingerprint(root: String) -> String {
        let file = location.map { Self.relativeFile($0.file, root: root) } ?? ""
        let key = entity ?? message
        return String(FileDigest.sha256(of: Array("\(code)\u{0}\(file)\u{0}\(key)".utf8)).prefix(32))
    }

    /// `file` without the leading `root/` when it starts with it (so the same city checked from another
    /// working directory gives the same fingerprints).
    public static func relativeFile(_ file: String, root: String) -> String {
        var base = root
        while base.hasSuffix("/") && base.count > 1 { base.removeLast() }
        if base.isEmpty || base == "." {
            return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
        }
        if file.hasPrefix(base + "/") { return String(file.dropFirst(base.count + 1)) }
        return file
    }
}

/// Matches reported diagnostics against a baseline, one entry per occurrence. Not thread-safe on its own;
/// ``DiagnosticBag`` calls it under its lock.
final class BaselineMatcher: @unchecked Sendable {
    let baseline: Baseline
    let root: String
    private var remaining: [String: Int] = [:]

    init(_ baseline: Baseline, root: String) {
        self.baseline = baseline
        self.root = root
        for entry in baseline.entries { remaining[entry.fingerprint, default: 0] += 1 }
    }

    /// True (and one entry used up) when the diagnostic is in the baseline.
    func consume(_ diagnostic: Diagnostic) -> Bool {
        let fp = diagnostic.fingerprint(root: root)
        guard let n = remaining[fp], n > 0 else { return false }
        remaining[fp] = n - 1
        return true
    }

    /// Entries that matched nothing in this run: problems that were fixed.
    var unmatched: [Baseline.Entry] {
        var left = remaining
        var out: [Baseline.Entry] = []
        for entry in baseline.entries.reversed() {
            if let n = left[entry.fingerprint], n > 0 {
                out.append(entry)
                left[entry.fingerprint] = n - 1
            }
        }
        return out.reversed()
    }
}
