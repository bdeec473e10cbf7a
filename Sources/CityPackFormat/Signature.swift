import CityPackSupport
import Foundation

/// What exactly is signed in a manifest or catalog, shared by the signer (`CityPackEmit`) and the verifier
/// (`CityPackKit`) — and documented in `docs/RELEASES.md` for verifiers on other platforms.
///
/// A signed document is a JSON object with two extra members: `keyId` (a string, see ``keyID(publicKey:)``) and
/// `signature` (base64 of the 64-byte Ed25519 signature, RFC 8032). The signature covers the RFC 8785 canonical
/// form of the whole object **without** its `signature` member (``signingBytes(of:)``); `keyId` and every other
/// member, including ones this version does not know, are covered.
package enum DocumentSignature {
    /// Member holding the base64 Ed25519 signature.
    package static let signatureKey = "signature"
    /// Member naming the key: ``keyID(publicKey:)``.
    package static let keyIDKey = "keyId"

    /// The bytes a signature covers: the document parsed as JSON, its top-level `signature` member removed,
    /// serialised canonically (RFC 8785).
    /// - Parameter document: The manifest or catalog file as stored.
    /// - Throws: ``SignatureFormatError`` when the document is not a JSON object or holds non-finite numbers.
    package static func signingBytes(of document: Data) throws(SignatureFormatError) -> Data {
        let value: JSONValue
        do { value = try JSONValue.parse(document) } catch { throw .notJSON("\(error)") }
        guard var members = value.objectValue else { throw .notAnObject }
        members.removeValue(forKey: signatureKey)
        do { return try JSONValue.object(members).canonicalData() } catch { throw .notJSON("a number is not finite") }
    }

    /// The `signature` and `keyId` members of a document, when present.
    /// - Throws: ``SignatureFormatError`` when the document is not a JSON object, or `signature` is not a string
    ///   of base64 text.
    package static func embedded(in document: Data) throws(SignatureFormatError) -> (signature: Data, keyID: String?)? {
        let value: JSONValue
        do { value = try JSONValue.parse(document) } catch { throw .notJSON("\(error)") }
        guard let members = value.objectValue else { throw .notAnObject }
        guard let raw = members[signatureKey] else { return nil }
        guard case .string(let text) = raw, let signature = Data(base64Encoded: text) else {
            throw .malformedSignature("`signature` is not base64 text")
        }
        var keyID: String?
        if case .string(let id)? = members[keyIDKey] { keyID = id }
        return (signature, keyID)
    }

    /// A key's id: the first 16 lowercase hex digits of SHA-256 over the 32 raw public-key bytes.
    /// - Parameter publicKey: The raw Ed25519 public key.
    package static func keyID(publicKey: Data) -> String {
        String(FileDigest.sha256(of: publicKey).prefix(16))
    }
}

/// Why a document's signing bytes cannot be computed.
package enum SignatureFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    case notJSON(String)
    case notAnObject
    case malformedSignature(String)

    package var description: String {
        switch self {
        case .notJSON(let message): "not JSON: \(message)"
        case .notAnObject: "not a JSON object"
        case .malformedSignature(let message): message
        }
    }
}

/// A JSON document that carries an embedded signature: ``Manifest`` and ``Catalog``.
package protocol SignableDocument: Codable, Sendable {
    /// ``DocumentSignature/keyIDKey``.
    var keyId: String? { get set }
    /// ``DocumentSignature/signatureKey``.
    var signature: String? { get set }
}

extension Manifest: SignableDocument {}
extension Catalog: SignableDocument {}
