import CityPackFormat
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
public enum PackVerifier {
    /// The id of a raw public key, as written in `keyId`.
    public static func keyID(publicKey: Data) -> String {
        DocumentSignature.keyID(publicKey: publicKey)
    }

    /// Verifies a signed JSON document (manifest or catalog) as stored.
    /// - Parameters:
    ///   - document: The file's bytes.
    ///   - path: For messages.
    ///   - publicKeys: Trusted raw public keys (at least one).
    /// - Returns: The id of the key that verified.
    /// - Throws: `PackError.signatureMissing`, `.untrustedKey`, `.signatureInvalid`, `.invalidManifest`.
    public static func verifySignature(of document: Data, path: String, publicKeys: [Data]) throws(PackError) -> String {
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
    public static func verifyManifest(_ document: Data, path: String, trust: PackTrust) throws(PackError) -> Manifest {
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
    public static func verifyCatalog(_ document: Data, path: String, publicKeys: [Data]) throws(PackError) -> Catalog {
        if !publicKeys.isEmpty { _ = try verifySignature(of: document, path: path, publicKeys: publicKeys) }
        do { return try JSONDecoder().decode(Catalog.self, from: document) } catch {
            throw PackError.invalidManifest(path: path, message: "not a catalog: \(error)")
        }
    }

    /// Whether an opened pack's `meta` is the one the manifest describes (city, data version, format version).
    /// - Throws: `PackError.manifestMismatch` naming the first differing field.
    public static func checkPack(meta: PackMeta, formatVersion: Int32, against manifest: Manifest) throws(PackError) {
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
    public static func checkCatalogEntry(_ entry: Catalog.Entry, manifest: Manifest, manifestBytes: Data) throws(PackError) {
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
    public static func verifyRelease(_ document: Data, path: String, trust: PackTrust, catalogEntry: Catalog.Entry? = nil)
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
