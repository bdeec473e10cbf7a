/// A manifest patch: how the manifest of one data version becomes the next one's, byte for byte, in a few hundred
/// bytes instead of the whole manifest (most of which is the same file list again).
///
/// `citypack build` writes one per delta, `<city>-<from>-<to>.manifest-patch.json`, beside the delta; the catalog
/// entry lists them (``Catalog/Entry/manifestPatches``). The manifest cannot list its own patch (the patch's hash
/// depends on the manifest), so the signed catalog pins it. A client holding the manifest of `from` applies the
/// edits, checks the result's size and SHA-256 against ``result`` and the catalog's `manifestSha256`, and then has
/// exactly the bytes it would have fetched (its signature is checked as usual). The patch names no hash of its
/// own: every byte of it counts on an update, and the catalog's `manifestSha256` is what the result must match.
///
/// ```json
/// { "format": 1, "city": "monaco", "from": 1, "to": 2,
///   "base": { "bytes": 17001 }, "result": { "bytes": 17542 },
///   "edits": [ 12, [3, "replacement lines\n"], 40, [0, "inserted\n"], [2, ""], 7 ] }
/// ```
/// The base's lines each keep their `\n` (the last may have none). A number copies that many base lines; a pair
/// `[d, text]` skips `d` base lines and appends `text`. The edits must consume every base line exactly. See
/// `docs/RELEASES.md`.
package struct ManifestPatch: Sendable, Codable, Equatable {
    /// Size (and optionally SHA-256) of a manifest file. Writers leave the hash out: the signed catalog pins the
    /// result's (`manifestSha256`), and a wrong base cannot give that result.
    package struct FileID: Sendable, Codable, Equatable {
        package var bytes: Int
        /// Lowercase hex, when given.
        package var sha256: String?
        package init(bytes: Int, sha256: String? = nil) {
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// One step over the base's lines.
    package enum Edit: Sendable, Equatable, Codable {
        /// Copy the next `n` base lines.
        case copy(Int)
        /// Skip the next `skip` base lines and append `text`.
        case replace(skip: Int, text: String)

        package init(from decoder: Decoder) throws {
            if let n = try? decoder.singleValueContainer().decode(Int.self) {
                self = .copy(n)
                return
            }
            var pair = try decoder.unkeyedContainer()
            let skip = try pair.decode(Int.self)
            let text = try pair.decode(String.self)
            guard pair.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: pair, debugDescription: "an edit pair has two members")
            }
            self = .replace(skip: skip, text: text)
        }

        package func encode(to encoder: Encoder) throws {
            switch self {
            case .copy(let n):
                var one = encoder.singleValueContainer()
                try one.encode(n)
            case .replace(let skip, let text):
                var pair = encoder.unkeyedContainer()
                try pair.encode(skip)
                try pair.encode(text)
            }
        }
    }

    /// Why a patch does not apply.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// The layout version (1).
    package static let formatVersion = 1
    /// File suffix of a patch.
    package static let suffix = ".manifest-patch.json"
    /// The largest patch file a reader accepts (a patch is written only when it is much smaller than the manifest).
    package static let maxBytes = 8 << 20
    /// A patch is written only when it is smaller than this fraction of the new manifest.
    package static let maxFractionOfManifest = 0.5

    package var format: Int
    package var city: String
    package var from: Int
    package var to: Int
    package var base: FileID
    package var result: FileID
    package var edits: [Edit]

    package init(format: Int = ManifestPatch.formatVersion, city: String, from: Int, to: Int, base: FileID, result: FileID, edits: [Edit]) {
        self.format = format
        self.city = city
        self.from = from
        self.to = to
        self.base = base
        self.result = result
        self.edits = edits
    }

    /// `<city>-<from>-<to>.manifest-patch.json`.
    package static func fileName(city: String, from: Int, to: Int) -> String { "\(city)-\(from)-\(to)\(suffix)" }

    /// The versions of a patch file name of `city`, or nil when the name is not one.
    package static func versions(fileName name: String, city: String) -> (from: Int, to: Int)? {
        PackDelta.versions(fileName: name, city: city, suffix: suffix)
    }

    /// The lines of `bytes`, each with its `\n` (the last may have none).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            out.append(bytes[start...i])
            start = i + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }

    /// The edits that turn `base` into `result`, line by line (a shortest edit script).
    package static func edits(base: [UInt8], result: [UInt8]) -> [Edit] {
        let old = lines(base)
        let new = lines(result)
        let difference = new.difference(from: old)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var out: [Edit] = []
        var i = 0
        var j = 0
        var copied = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, !removed.contains(i), !inserted.contains(j) {
                copied += 1
                i += 1
                j += 1
                continue
            }
            if copied > 0 { out.append(.copy(copied)) }
            copied = 0
            var skip = 0
            while i < old.count, removed.contains(i) {
                skip += 1
                i += 1
            }
            var text: [UInt8] = []
            while j < new.count, inserted.contains(j) {
                text += new[j]
                j += 1
            }
            out.append(.replace(skip: skip, text: String(decoding: text, as: UTF8.self)))
        }
        if copied > 0 { out.append(.copy(copied)) }
        return out
    }

    /// Applies the edits to `base`; checks the base and the result against ``base`` and ``result``, and the
    /// result against `expected` (the catalog's `manifestSha256`).
    /// - Parameter sha256: SHA-256 (lowercase hex) of bytes, supplied by the caller's crypto library.
    /// - Throws: ``Failure`` naming what does not match.
    package func apply(to base: [UInt8], expected: String, sha256: ([UInt8]) -> String) throws(Failure) -> [UInt8] {
        guard format == Self.formatVersion else { throw Failure("manifest patch format \(format) is not supported") }
        guard base.count == self.base.bytes, self.base.sha256.map({ $0 == sha256(base) }) ?? true else {
            throw Failure("the installed manifest is not the patch's base (version \(from))")
        }
        let old = Self.lines(base)
        var out: [UInt8] = []
        out.reserveCapacity(result.bytes)
        var i = 0
        for edit in edits {
            switch edit {
            case .copy(let n):
                guard n >= 0, n <= old.count - i else { throw Failure("an edit copies past the base's last line") }
                for line in old[i..<(i + n)] { out += line }
                i += n
            case .replace(let skip, let text):
                guard skip >= 0, skip <= old.count - i else { throw Failure("an edit skips past the base's last line") }
                i += skip
                out += Array(text.utf8)
            }
            guard out.count <= result.bytes else { throw Failure("the edits make more than \(result.bytes) bytes") }
        }
        guard i == old.count else { throw Failure("the edits leave \(old.count - i) base lines unread") }
        let digest = sha256(out)
        guard out.count == result.bytes, digest == expected, result.sha256.map({ $0 == digest }) ?? true else {
            throw Failure("the patched manifest is not version \(to)'s (size or SHA-256 differs)")
        }
        return out
    }
}
