import CityPackFormat
import Crypto
import Foundation

/// An Ed25519 private key that signs manifests and catalogs (swift-crypto `Curve25519.Signing`).
///
/// Key files (written by `citypack keygen --output PATH`): `PATH` holds the 32-byte private key (the RFC 8032
/// seed) as one line of base64, mode 0600; `PATH.pub` holds the 32-byte public key as one line of base64. Both are
/// the raw key bytes every Ed25519 library accepts (CryptoKit `rawRepresentation`, libsodium seeds, Tink, …).
package struct SigningKey: Sendable {
    /// The 32 raw private-key bytes (the key type itself is not `Sendable`).
    let raw: Data
    var key: Curve25519.Signing.PrivateKey {
        // Validated at init, so reconstruction cannot fail.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// The 32 raw public-key bytes.
    package var publicKey: Data { key.publicKey.rawRepresentation }
    /// ``DocumentSignature/keyID(publicKey:)`` of the public key.
    package var keyID: String { DocumentSignature.keyID(publicKey: publicKey) }

    /// A new random key.
    package static func generate() -> SigningKey { SigningKey(key: .init()) }

    /// A key from its 32 raw bytes.
    /// - Throws: ``SigningKeyError/malformed(path:message:)`` when the bytes are not a key.
    package init(rawRepresentation: Data, path: String = "<memory>") throws(SigningKeyError) {
        guard rawRepresentation.count == 32 else {
            throw .malformed(path: path, message: "expected 32 key bytes, found \(rawRepresentation.count)")
        }
        do { _ = try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation) } catch {
            throw .malformed(path: path, message: "\(error)")
        }
        raw = rawRepresentation
    }

    init(key: Curve25519.Signing.PrivateKey) { raw = key.rawRepresentation }

    /// Reads a private key file.
    /// - Throws: ``SigningKeyError`` — `.missing` when there is no file, `.unreadable`, `.malformed`.
    package static func load(path: String) throws(SigningKeyError) -> SigningKey {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, message: errnoText())
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: text) else {
            throw .malformed(path: path, message: "not one line of base64 (write keys with `citypack keygen`)")
        }
        return try SigningKey(rawRepresentation: raw, path: path)
    }

    /// Writes the private key to `path` (mode 0600) and the public key to `path.pub` (mode 0644), each under a
    /// temporary name renamed into place.
    /// - Parameter overwrite: Replace existing files; otherwise an existing file is an error.
    /// - Throws: `EmitError.io` (located at the path), including when a file exists and `overwrite` is false.
    package func write(to path: String, overwrite: Bool = false) throws(EmitError) {
        let publicPath = path + ".pub"
        if !overwrite {
            for p in [path, publicPath] where FileManager.default.fileExists(atPath: p) {
                throw .io(path: p, message: "already exists; pass --force to replace it")
            }
        }
        try OutputFiles.writeAtomically(Data((key.rawRepresentation.base64EncodedString() + "\n").utf8), to: path, mode: 0o600)
        try OutputFiles.writeAtomically(Data((publicKey.base64EncodedString() + "\n").utf8), to: publicPath, mode: 0o644)
    }

    /// Ed25519 signature of bytes.
    package func signature(for bytes: Data) throws(EmitError) -> Data {
        do { return try key.signature(for: bytes) } catch {
            throw .io(path: "<signature>", message: "signing failed: \(error)")
        }
    }

    /// The document with `keyId` set and `signature` over its canonical form (``DocumentSignature``).
    package func sign<Document: SignableDocument>(_ document: Document) throws(EmitError) -> Document {
        var unsigned = document
        unsigned.keyId = keyID
        unsigned.signature = nil
        let bytes: Data
        do {
            bytes = try DocumentSignature.signingBytes(of: OutputFiles.encode(unsigned))
        } catch {
            throw .io(path: "<signature>", message: "cannot canonicalise the document: \(error)")
        }
        var signed = unsigned
        signed.signature = try signature(for: bytes).base64EncodedString()
        return signed
    }

    /// Whether `document` carries a valid signature by this key (used to keep an earlier signature when the
    /// signed content is unchanged, so rebuilds stay byte-identical even with randomised signers).
    package func hasValidSignature(_ document: Data) -> Bool {
        guard let embedded = try? DocumentSignature.embedded(in: document), embedded.keyID == keyID,
            let bytes = try? DocumentSignature.signingBytes(of: document)
        else { return false }
        return key.publicKey.isValidSignature(embedded.signature, for: bytes)
    }
}

/// Why a signing key cannot be used.
package enum SigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String, message: String)
    case malformed(path: String, message: String)

    package var description: String {
        switch self {
        case .missing(let path): "\(path): no such key file"
        case .unreadable(let path, let message): "\(path): cannot read the key: \(message)"
        case .malformed(let path, let message): "\(path): not an Ed25519 private key: \(message)"
        }
    }
}
