import CityPackFormat
import CityPackSupport
import Foundation

/// Checks a hosted release as an app would before installing from it: a manifest, or a catalog and every
/// manifest it lists, with the files each manifest names. `citypack verify` prints these checks; the library's
/// own downloads make the same checks one city at a time (``PackVerifier``).
package enum ReleaseCheck {
    /// One finding: a file and whether it passed.
    package struct Check: Sendable, Equatable, Encodable {
        /// The file checked.
        package var path: String
        /// Whether it passed.
        package var ok: Bool
        /// What was checked (when ok) or what is wrong.
        package var message: String
    }

    /// What the checks trust.
    package struct Trust: Sendable {
        /// Raw Ed25519 public keys; empty: signatures are not checked.
        package var publicKeys: [Data]
        /// The installed data version of one manifest's city (a lower offered version is a rollback).
        package var installedVersion: Int?
        /// Installed data versions per city, for a catalog's entries.
        package var installedVersions: [String: Int]

        /// - Parameters:
        ///   - publicKeys: Trusted raw Ed25519 public keys.
        ///   - installedVersion: The installed version, for a single manifest.
        ///   - installedVersions: Installed versions per city, for a catalog.
        package init(publicKeys: [Data] = [], installedVersion: Int? = nil, installedVersions: [String: Int] = [:]) {
            self.publicKeys = publicKeys
            self.installedVersion = installedVersion
            self.installedVersions = installedVersions
        }
    }

    /// Whether `document` is a catalog (a JSON object with `packs`) rather than a manifest.
    package static func isCatalog(_ document: Data) -> Bool {
        if case .object(let members)? = try? JSONValue.parse(document) { return members["packs"] != nil }
        return false
    }

    /// Checks a catalog's signature, then each entry against the manifest it names (read beside the catalog)
    /// and that manifest as ``checkManifest(_:path:trust:catalogEntry:)`` does.
    /// - Parameters:
    ///   - document: The catalog's bytes.
    ///   - path: Where it was read; the manifests are resolved against its folder.
    ///   - trust: Keys and installed versions (per city).
    package static func checkCatalog(_ document: Data, path: String, trust: Trust) -> [Check] {
        let catalog: Catalog
        do {
            catalog = try PackVerifier.verifyCatalog(document, path: path, publicKeys: trust.publicKeys)
        } catch {
            return [Check(path: path, ok: false, message: "\(error)")]
        }
        var checks = [Check(path: path, ok: true, message: signatureNote(document, keys: trust.publicKeys) + ", \(catalog.packs.count) packs")]
        let base = PathText.parent(path)
        for entry in catalog.packs {
            let manifestPath = (base as NSString).appendingPathComponent(entry.manifest)
            guard let bytes = FileManager.default.contents(atPath: manifestPath) else {
                checks.append(Check(path: manifestPath, ok: false, message: "no such file (listed for \(entry.id) in the catalog)"))
                continue
            }
            checks += checkManifest(bytes, path: manifestPath, trust: trust, catalogEntry: entry)
        }
        return checks
    }

    /// Checks a manifest (signature, rollback against the installed version of its city, the catalog entry
    /// when given, the pack's bytes and hash), then every other file it lists: copy tables, web parts, deltas.
    /// - Parameters:
    ///   - document: The manifest's bytes.
    ///   - path: Where it was read; the files it lists are resolved against its folder.
    ///   - trust: Keys and the installed version (``Trust/installedVersion``, else the city's in
    ///     ``Trust/installedVersions``).
    ///   - catalogEntry: The catalog entry that lists it, if any.
    package static func checkManifest(_ document: Data, path: String, trust: Trust, catalogEntry: Catalog.Entry?) -> [Check] {
        let city = catalogEntry?.id ?? (try? JSONDecoder().decode(Manifest.self, from: document))?.city.id
        let packTrust = PackTrust(
            publicKeys: trust.publicKeys, installedDataVersion: trust.installedVersion ?? city.flatMap { trust.installedVersions[$0] })
        let manifest: Manifest
        do {
            manifest = try PackVerifier.verifyRelease(document, path: path, trust: packTrust, catalogEntry: catalogEntry)
        } catch {
            return [Check(path: path, ok: false, message: "\(error)")]
        }
        var checks = [
            Check(
                path: path, ok: true,
                message: "\(manifest.city.id) data version \(manifest.dataVersion): \(signatureNote(document, keys: trust.publicKeys)), "
                    + "pack \(manifest.artifact.path) (\(manifest.artifact.bytes) bytes) matches")
        ]
        let directory = PathText.parent(path)
        for member in PackVerifier.checkMemberFiles(of: manifest, folder: URL(fileURLWithPath: directory)) {
            checks.append(Check(
                path: (directory as NSString).appendingPathComponent(member.path), ok: member.problem == nil,
                message: "\(member.kind): " + (member.problem ?? "\(member.detail) matches")))
        }
        return checks
    }

    /// How a document is signed, for a report: unsigned, signed but not checked, or verified.
    package static func signatureNote(_ document: Data, keys: [Data]) -> String {
        guard let embedded = (try? DocumentSignature.embedded(in: document)) ?? nil else { return "unsigned" }
        let keyID = embedded.keyID ?? "?"
        if keys.isEmpty { return "signed by key \(keyID) (not checked: no --public-key)" }
        return "signature by key \(keyID) verified"
    }
}
