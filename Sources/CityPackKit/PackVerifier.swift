import CityPackFormat
import CityPackStorage
import CityPackSupport
import Crypto
import Foundation

/// What an app trusts when it installs or updates a pack.
///
/// Pass it as ``PackReader/Options/trust`` to ``PackReader/open(manifest:options:)``: before the pack is opened
/// the manifest's Ed25519 signature is verified against the trusted keys, its data version is compared with the
/// installed one (rollback), its city with the expected one; then the pack's SHA-256 and sizes are checked
/// against the manifest and its `meta` (city, data version, format version) against the manifest's
/// (mix-and-match).
public struct PackTrust: Sendable, Equatable {
    /// Raw 32-byte Ed25519 public keys, any of which may sign. Empty: signatures are not checked.
    public var publicKeys: [Data]
    /// The data version installed on the device; an older offered version is refused as a rollback.
    public var installedDataVersion: Int?
    /// The city the app expects (when updating an installed city).
    public var cityID: String?

    /// - Parameters:
    ///   - publicKeys: Trusted raw Ed25519 public keys (``publicKey(fromFile:)`` reads `citypack keygen` output).
    ///   - installedDataVersion: The installed data version, nil when nothing is installed.
    ///   - cityID: The expected city id.
    public init(publicKeys: [Data] = [], installedDataVersion: Int? = nil, cityID: String? = nil) {
        self.publicKeys = publicKeys
        self.installedDataVersion = installedDataVersion
        self.cityID = cityID
    }

    /// Reads a public key written by `citypack keygen` (`PATH.pub`: one line of base64 of the 32 raw bytes).
    /// - Throws: `PackError.fileNotFound`, or `.invalidManifest` when the file is not such a key.
    public static func publicKey(fromFile url: URL) throws(PackError) -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw PackError.fileNotFound(path: url.path) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: text), raw.count == 32 else {
            throw PackError.invalidManifest(path: url.path, message: "not an Ed25519 public key (one line of base64 of 32 bytes)")
        }
        return raw
    }
}

/// Signature, rollback and mix-and-match checks (see ``PackTrust`` and `docs/RELEASES.md`).
package enum PackVerifier {
    /// The id of a raw public key, as written in `keyId`.
    package static func keyID(publicKey: Data) -> String {
        DocumentSignature.keyID(publicKey: publicKey)
    }

    /// Verifies a signed JSON document (manifest or catalog) as stored.
    /// - Parameters:
    ///   - document: The file's bytes.
    ///   - path: For messages.
    ///   - publicKeys: Trusted raw public keys (at least one).
    /// - Returns: The id of the key that verified.
    /// - Throws: `PackError.signatureMissing`, `.untrustedKey`, `.signatureInvalid`, `.invalidManifest`.
    package static func verifySignature(of document: Data, path: String, publicKeys: [Data]) throws(PackError) -> String {
        let embedded: (signature: Data, keyID: String?)?
        let bytes: Data
        do {
            embedded = try DocumentSignature.embedded(in: document)
            bytes = try DocumentSignature.signingBytes(of: document)
        } catch {
            throw PackError.invalidManifest(path: path, message: error.description)
        }
        guard let embedded else { throw PackError.signatureMissing(path: path) }
        var candidates: [(String, Curve25519.Signing.PublicKey)] = []
        for raw in publicKeys {
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { continue }
            let id = keyID(publicKey: raw)
            if embedded.keyID == nil || embedded.keyID == id { candidates.append((id, key)) }
        }
        if candidates.isEmpty { throw PackError.untrustedKey(path: path, keyID: embedded.keyID ?? "(none)") }
        for (id, key) in candidates where key.isValidSignature(embedded.signature, for: bytes) { return id }
        throw PackError.signatureInvalid(
            path: path, message: "the content differs from what key \(candidates[0].0) signed")
    }

    /// Verifies a manifest file against a trust policy and decodes it.
    /// - Throws: `PackError.invalidManifest`, the signature errors of ``verifySignature(of:path:publicKeys:)``,
    ///   `.wrongCity`, `.rollback`.
    package static func verifyManifest(_ document: Data, path: String, trust: PackTrust) throws(PackError) -> Manifest {
        if !trust.publicKeys.isEmpty { _ = try verifySignature(of: document, path: path, publicKeys: trust.publicKeys) }
        let manifest: Manifest
        do { manifest = try JSONDecoder().decode(Manifest.self, from: document) } catch {
            throw PackError.invalidManifest(path: path, message: "\(error)")
        }
        if let expected = trust.cityID, expected != manifest.city.id {
            throw PackError.wrongCity(expected: expected, found: manifest.city.id)
        }
        if let installed = trust.installedDataVersion, manifest.dataVersion < installed {
            throw PackError.rollback(city: manifest.city.id, offered: manifest.dataVersion, installed: installed)
        }
        return manifest
    }

    /// Verifies a catalog file's signature (when keys are given) and decodes it.
    /// - Throws: The signature errors, or `.invalidManifest` when it is not a catalog.
    package static func verifyCatalog(_ document: Data, path: String, publicKeys: [Data]) throws(PackError) -> Catalog {
        if !publicKeys.isEmpty { _ = try verifySignature(of: document, path: path, publicKeys: publicKeys) }
        do { return try JSONDecoder().decode(Catalog.self, from: document) } catch {
            throw PackError.invalidManifest(path: path, message: "not a catalog: \(error)")
        }
    }

    /// Whether an opened pack's `meta` is the one the manifest describes (city, data version, format version).
    /// - Throws: `PackError.manifestMismatch` naming the first differing field.
    package static func checkPack(meta: PackMeta, formatVersion: Int32, against manifest: Manifest) throws(PackError) {
        if meta.cityID != manifest.city.id {
            throw PackError.manifestMismatch(field: "city id", manifest: manifest.city.id, pack: meta.cityID)
        }
        if meta.dataVersion != manifest.dataVersion {
            throw PackError.manifestMismatch(
                field: "data version", manifest: String(manifest.dataVersion), pack: meta.dataVersion.map(String.init) ?? "none")
        }
        if Int(formatVersion) != manifest.formatVersion {
            throw PackError.manifestMismatch(
                field: "format version", manifest: String(manifest.formatVersion), pack: String(formatVersion))
        }
    }
}

extension PackVerifier {
    /// Whether a catalog entry describes the manifest it names: the manifest bytes' SHA-256 (`manifestSha256`),
    /// the city, the data version, the artifact's SHA-256 and size, and the deltas (files, sizes, hashes).
    /// - Parameters:
    ///   - entry: The catalog's entry.
    ///   - manifest: The manifest the entry names, decoded.
    ///   - manifestBytes: The manifest file's bytes.
    /// - Throws: `PackError.catalogMismatch` naming every field that differs.
    package static func checkCatalogEntry(_ entry: Catalog.Entry, manifest: Manifest, manifestBytes: Data) throws(PackError) {
        var problems: [String] = []
        if let expected = entry.manifestSha256, expected != FileDigest.sha256(of: manifestBytes) {
            problems.append("SHA-256 differs from the catalog's manifestSha256")
        }
        if entry.id != manifest.city.id { problems.append("city \(manifest.city.id), catalog says \(entry.id)") }
        if entry.dataVersion != manifest.dataVersion {
            problems.append("data version \(manifest.dataVersion), catalog says \(entry.dataVersion)")
        }
        if entry.sha256 != manifest.artifact.sha256 || entry.bytes != manifest.artifact.bytes {
            problems.append("artifact differs from the catalog's")
        }
        // Deltas: the same files (the catalog's paths carry the city folder), sizes and hashes as the manifest's.
        let listed = (entry.deltas ?? []).map { delta in
            var d = delta
            d.path = String(d.path.split(separator: "/").last ?? "")
            return d
        }
        if listed != (manifest.deltas ?? []) { problems.append("deltas differ from the catalog's") }
        if !problems.isEmpty { throw PackError.catalogMismatch(problems: problems) }
    }

    /// Every check an app makes before it installs a release, in order: the manifest against the trust policy
    /// (``verifyManifest(_:path:trust:)``), against the catalog entry that listed it (when given,
    /// ``checkCatalogEntry(_:manifest:manifestBytes:)``), then its pack — opened through the manifest (sizes,
    /// hashes, `meta`) and closed again.
    /// - Parameters:
    ///   - document: The manifest file's bytes.
    ///   - path: The manifest file; its pack is found relative to it.
    ///   - trust: Trusted keys and the installed data version.
    ///   - catalogEntry: The catalog's entry for this manifest, when it was reached through a catalog.
    /// - Returns: The verified manifest.
    /// - Throws: The first failing check's `PackError`.
    package static func verifyRelease(_ document: Data, path: String, trust: PackTrust, catalogEntry: Catalog.Entry? = nil)
        throws(PackError) -> Manifest
    {
        let manifest = try verifyManifest(document, path: path, trust: trust)
        if let catalogEntry { try checkCatalogEntry(catalogEntry, manifest: manifest, manifestBytes: document) }
        var options = PackReader.Options()
        options.trust = trust
        try PackReader.open(manifest: URL(fileURLWithPath: path), options: options).close()
        return manifest
    }
}

extension PackVerifier {
    /// The outcome of checking one file a manifest lists besides its pack.
    package struct MemberCheck: Sendable, Equatable {
        /// The file, as the manifest names it (relative to the manifest's folder).
        package var path: String
        /// What it is: `copy`, `web part places`, `delta 1→2`, ….
        package var kind: String
        /// nil when the file matches; else what is wrong.
        package var problem: String?
        /// What was checked, for a report.
        package var detail: String
    }

    /// Checks every file a verified manifest lists besides its pack, as a client that downloads them would:
    /// - copy files (`copy`): size and SHA-256;
    /// - web parts (`web.parts`): size and SHA-256, then the gunzip'd size (bounded by the manifest's) and that
    ///   the JSON parses; `web.strings` must name listed copy files;
    /// - deltas (`deltas`): size and SHA-256; when the base version's pack is still beside the manifest (its
    ///   versioned manifest and pack), the delta is applied to it in a temporary folder and must give this
    ///   release's database (`artifact.uncompressedSha256`).
    /// Paths are relative to `folder` and may not leave it.
    /// - Returns: One result per file, in manifest order.
    package static func checkMemberFiles(of manifest: Manifest, folder: URL) -> [MemberCheck] {
        var out: [MemberCheck] = []
        func file(_ relative: String) -> URL? {
            guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { return nil }
            return folder.appendingPathComponent(relative)
        }
        /// Reads a listed file and checks its size and hash; nil after recording a problem.
        func read(_ relative: String, kind: String, bytes: Int, sha256: String) -> Data? {
            guard let url = file(relative) else {
                out.append(MemberCheck(path: relative, kind: kind, problem: "the path leaves the manifest's folder", detail: ""))
                return nil
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                out.append(MemberCheck(path: relative, kind: kind, problem: "no such file", detail: ""))
                return nil
            }
            if data.count != bytes {
                out.append(MemberCheck(path: relative, kind: kind, problem: "\(data.count) bytes, the manifest says \(bytes)", detail: ""))
                return nil
            }
            let actual = FileDigest.sha256(of: data)
            if actual != sha256 {
                out.append(MemberCheck(path: relative, kind: kind, problem: "SHA-256 \(actual) differs from the manifest's \(sha256)", detail: ""))
                return nil
            }
            return data
        }

        let copyPaths = Set((manifest.copy ?? []).map(\.path))
        for copy in manifest.copy ?? [] {
            if read(copy.path, kind: "copy", bytes: copy.bytes, sha256: copy.sha256) != nil {
                out.append(MemberCheck(path: copy.path, kind: "copy", problem: nil, detail: "\(copy.bytes) bytes"))
            }
        }
        if let web = manifest.web {
            // Each part's head and chunks (web format 2); pieces of JSON text (`.text.gz`) are JSON only when joined.
            for part in web.parts {
                for (index, file) in part.files.enumerated() {
                    let kind = index == 0 ? "web part \(part.name)" : "web part \(part.name) chunk \(index)"
                    guard let data = read(file.path, kind: kind, bytes: file.bytes, sha256: file.sha256) else { continue }
                    do {
                        let json = try Gunzip.inflate([UInt8](data), limit: file.uncompressedBytes)
                        guard json.count == file.uncompressedBytes else {
                            out.append(MemberCheck(
                                path: file.path, kind: kind,
                                problem: "\(json.count) bytes after gunzip, the manifest says \(file.uncompressedBytes)", detail: ""))
                            continue
                        }
                        if file.path.hasSuffix(".json.gz") { _ = try JSONValue.parse(Data(json)) }
                        out.append(MemberCheck(
                            path: file.path, kind: kind, problem: nil, detail: "\(file.bytes) bytes, \(json.count) after gunzip"))
                    } catch {
                        out.append(MemberCheck(path: file.path, kind: kind, problem: "not gzip'd JSON of that size: \(error)", detail: ""))
                    }
                }
            }
            for (locale, path) in web.strings.sorted(by: { $0.key < $1.key }) where !copyPaths.contains(path) {
                out.append(MemberCheck(
                    path: path, kind: "web strings \(locale)", problem: "not among the manifest's copy files", detail: ""))
            }
        }
        for delta in manifest.deltas ?? [] {
            let kind = "delta \(delta.from)→\(delta.to)"
            guard read(delta.path, kind: kind, bytes: delta.bytes, sha256: delta.sha256) != nil, let deltaURL = file(delta.path)
            else { continue }
            guard delta.to == manifest.dataVersion, delta.resultSha256 == manifest.artifact.uncompressedSha256,
                delta.resultBytes == manifest.artifact.uncompressedBytes
            else {
                out.append(MemberCheck(path: delta.path, kind: kind, problem: "its result is not this release's database", detail: ""))
                continue
            }
            out.append(checkDeltaResult(delta, deltaURL: deltaURL, manifest: manifest, folder: folder, kind: kind))
        }
        return out
    }

    /// Applies a delta to its base pack, when that is still beside the manifest, in a temporary folder.
    static func checkDeltaResult(_ delta: Manifest.Delta, deltaURL: URL, manifest: Manifest, folder: URL, kind: String) -> MemberCheck {
        let baseManifestURL = folder.appendingPathComponent("\(manifest.city.id)-\(delta.from).manifest.json")
        guard let baseData = FileManager.default.contents(atPath: baseManifestURL.path),
            let base = try? JSONDecoder().decode(Manifest.self, from: baseData), base.dataVersion == delta.from,
            !base.artifact.path.contains("/"),
            let gz = FileManager.default.contents(atPath: folder.appendingPathComponent(base.artifact.path).path)
        else {
            return MemberCheck(
                path: delta.path, kind: kind, problem: nil,
                detail: "\(delta.bytes) bytes (version \(delta.from)'s pack is not here, so it was not applied)")
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("citypack-verify-\(getpid())-\(delta.from)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let database = try Gunzip.inflate([UInt8](gz), limit: delta.baseBytes)
            let installed = temporary.appendingPathComponent("base.sqlite")
            try Data(database).write(to: installed)
            let result = try PackInstaller.applyDelta(installedPack: installed, delta: deltaURL, expected: delta)
            guard result.sha256 == manifest.artifact.uncompressedSha256 else {
                return MemberCheck(path: delta.path, kind: kind, problem: "applied to version \(delta.from) it gives another database", detail: "")
            }
            return MemberCheck(
                path: delta.path, kind: kind, problem: nil,
                detail: "\(delta.bytes) bytes; applied to version \(delta.from)'s pack it gives this release's database")
        } catch {
            return MemberCheck(path: delta.path, kind: kind, problem: "cannot be applied to version \(delta.from)'s pack: \(error)", detail: "")
        }
    }
}
