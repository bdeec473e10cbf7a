import CityPackSQLite
import CityPackStorage

/// Why a pack could not be opened or read. Every public throwing API of `CityPackKit` throws only this type.
public enum PackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which bytes a hash or size refers to.
    public enum Artifact: String, Sendable, Equatable {
        /// The `.citypack.gz` file as downloaded.
        case compressed
        /// The SQLite database inside it.
        case uncompressed
    }

    /// No file at the path.
    case fileNotFound(path: String)
    /// Reading or writing a file failed.
    case io(path: String, message: String)
    /// The gzip stream is damaged or truncated.
    case corruptCompressedData(path: String, message: String)
    /// The file is neither a gzip stream nor a SQLite database, or lacks the pack tables.
    case notAPack(path: String, message: String)
    /// The SQLite `application_id` is not ``CityPackFormat/PackSchema/applicationID``: some other database.
    case wrongApplicationID(found: Int32, expected: Int32)
    /// The pack's format version (`user_version`) is one this reader does not know; update the app.
    case unsupportedFormatVersion(found: Int32, supported: Int32)
    /// A SHA-256 differs from the manifest's (lowercase hex).
    case hashMismatch(Artifact, expected: String, actual: String)
    /// A byte size differs from the manifest's.
    case sizeMismatch(Artifact, expected: Int, actual: Int)
    /// The manifest cannot be read or decoded, or its artifact path is unsafe.
    case invalidManifest(path: String, message: String)
    /// SQLite reported an error while querying.
    case sqlite(code: Int32, message: String)
    /// A row holds data the format does not allow (e.g. `poi.tags` that is not a JSON object of strings).
    case malformedData(String)
    /// The reader was closed.
    case closed
    /// A trusted key is required but the manifest or catalog carries no signature.
    case signatureMissing(path: String)
    /// The signature does not verify: the document was changed after signing, or signed by another key.
    case signatureInvalid(path: String, message: String)
    /// The document is signed by a key that is not among the trusted ones.
    case untrustedKey(path: String, keyID: String)
    /// The offered data version is older than the one installed: a rollback (replay of an old release).
    case rollback(city: String, offered: Int, installed: Int)
    /// The pack does not belong to the manifest (mix-and-match): the field differs between them.
    case manifestMismatch(field: String, manifest: String, pack: String)
    /// The manifest is for another city than the one expected.
    case wrongCity(expected: String, found: String)
    /// A catalog entry does not describe the manifest it names: each problem says which field differs.
    case catalogMismatch(problems: [String])

    public var description: String {
        switch self {
        case .fileNotFound(let path): "no such file: \(path)"
        case .io(let path, let message): "I/O error on \(path): \(message)"
        case .corruptCompressedData(let path, let message): "corrupt compressed pack \(path): \(message)"
        case .notAPack(let path, let message): "\(path) is not a CityPack pack: \(message)"
        case .wrongApplicationID(let found, let expected):
            "not a CityPack database (application_id \(found), expected \(expected))"
        case .unsupportedFormatVersion(let found, let supported):
            "pack format version \(found) is not supported by this reader (supports \(supported)); update the app"
        case .hashMismatch(let which, let expected, let actual):
            "SHA-256 of the \(which.rawValue) pack is \(actual), manifest says \(expected)"
        case .sizeMismatch(let which, let expected, let actual):
            "the \(which.rawValue) pack has \(actual) bytes, manifest says \(expected)"
        case .invalidManifest(let path, let message): "invalid manifest \(path): \(message)"
        case .sqlite(let code, let message): "SQLite error \(code): \(message)"
        case .malformedData(let message): "malformed pack data: \(message)"
        case .closed: "the pack reader is closed"
        case .signatureMissing(let path): "\(path) is not signed, but a trusted key is required"
        case .signatureInvalid(let path, let message): "the signature of \(path) does not verify: \(message)"
        case .untrustedKey(let path, let keyID): "\(path) is signed by key \(keyID), which is not trusted"
        case .rollback(let city, let offered, let installed):
            "refusing \(city) data version \(offered): version \(installed) is installed (rollback)"
        case .manifestMismatch(let field, let manifest, let pack):
            "the pack does not match its manifest: \(field) is \(pack) in the pack, \(manifest) in the manifest"
        case .wrongCity(let expected, let found): "the manifest is for city \(found), expected \(expected)"
        case .catalogMismatch(let problems): "does not match the catalog: " + problems.joined(separator: "; ")
        }
    }
}

extension PackError {
    var isManifestMismatch: Bool {
        if case .manifestMismatch = self { return true }
        return false
    }
}

extension PackError: SQLiteFailure {
    /// A file SQLite cannot open is `.notAPack`; a closed database `.closed`; anything else `.sqlite` with
    /// SQLite's message and, for a statement that does not prepare, its text.
    package init(_ error: SQLiteError) {
        switch error.operation {
        case .open: self = .notAPack(path: error.path, message: error.message)
        case .closed: self = .closed
        case .prepare: self = .sqlite(code: error.code, message: "\(error.message) in: \(error.sql ?? "")")
        case .exec, .step: self = .sqlite(code: error.code, message: error.message)
        }
    }
}
