import CityPackFormat
import CityPackSQLite
import CityPackStorage
import CityPackSupport
import Foundation

/// Everything before a pack is queried: finding it from its manifest, decompressing it, and checking its hashes,
/// sizes and format. ``PackReader/open(_:options:)`` and ``PackReader/open(manifest:options:)`` run these steps;
/// an app can also call ``decompress(_:to:verifying:maxUncompressedBytes:)`` to keep a decompressed database.
/// Stateless.
package enum PackOpener {
    /// A database file ready to be opened: the pack itself, or a decompressed copy the reader owns.
    struct DatabaseFile {
        /// Path of the SQLite database.
        var path: String
        /// Set when the file is a temporary copy to delete on close.
        var owned: Bool
    }

    /// Reads and decodes a manifest.
    /// - Throws: `PackError.fileNotFound` or `.invalidManifest`.
    package static func readManifest(_ url: URL) throws(PackError) -> Manifest {
        guard FileManager.default.fileExists(atPath: url.path) else { throw PackError.fileNotFound(path: url.path) }
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
        } catch {
            throw PackError.invalidManifest(path: url.path, message: "\(error)")
        }
    }

    /// Decompresses a `.citypack.gz` to a database file an app can keep and open directly next time.
    ///
    /// Never harms an existing `destination`: the database is written beside it under a hidden temporary name,
    /// verified, flushed, and only then renamed over it (a reader open on the old file keeps reading the old
    /// file). On any failure the destination is exactly as it was and the temporary file is gone. Apps that keep
    /// several cities and versions should use ``PackLibrary``, which also keeps the previous version.
    /// - Parameters:
    ///   - source: The compressed pack.
    ///   - destination: The database file to write (atomically replaced if present).
    ///   - manifest: When set, compressed and decompressed hashes and sizes are verified before the rename.
    ///   - maxUncompressedBytes: Refuse streams expanding beyond this size.
    /// - Throws: `PackError.corruptCompressedData`, `.hashMismatch`, `.sizeMismatch`, `.io`, `.fileNotFound`.
    package static func decompress(
        _ source: URL, to destination: URL, verifying manifest: Manifest? = nil, maxUncompressedBytes: Int = 4 << 30
    ) throws(PackError) {
        let temporary = AtomicFile.temporaryPath(for: destination.path)
        do {
            try decompress(source.path, to: temporary, manifest: manifest, maxBytes: maxUncompressedBytes)
            try PackFiles.syncFile(temporary)
            try PackFiles.replace(temporary, with: destination.path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    // MARK: - Steps of opening

    /// The pack a manifest names, with the options to open it: with a trust policy the manifest is verified first
    /// (signature, city, rollback); its reader version and artifact path are checked either way.
    /// - Throws: See ``PackReader/open(manifest:options:)``.
    static func locate(manifest manifestURL: URL, options: PackReader.Options) throws(PackError)
        -> (pack: URL, options: PackReader.Options)
    {
        let manifest: Manifest
        if let trust = options.trust {
            guard let bytes = FileManager.default.contents(atPath: manifestURL.path) else {
                throw PackError.fileNotFound(path: manifestURL.path)
            }
            manifest = try PackVerifier.verifyManifest(bytes, path: manifestURL.path, trust: trust)
        } else {
            manifest = try readManifest(manifestURL)
        }
        if manifest.minReaderVersion > Int(PackSchema.formatVersion) {
            throw PackError.unsupportedFormatVersion(
                found: Int32(clamping: manifest.minReaderVersion), supported: PackSchema.formatVersion)
        }
        let relative = manifest.artifact.path
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !components.contains("..") else {
            throw PackError.invalidManifest(path: manifestURL.path, message: "unsafe artifact path \(relative)")
        }
        var options = options
        options.manifest = manifest
        options.verifiedManifest = manifest
        return (manifestURL.deletingLastPathComponent().appendingPathComponent(relative), options)
    }

    /// The database to open for a pack file: a compressed pack is decompressed (and checked against the
    /// manifest) into a temporary file; a database is checked against the manifest as it is.
    /// - Throws: See ``PackReader/open(_:options:)``.
    static func databaseFile(for url: URL, options: PackReader.Options) throws(PackError) -> DatabaseFile {
        let path = url.path
        if options.trust != nil && options.verifiedManifest == nil {
            // A trust policy is about the manifest's signature: only open(manifest:) has its bytes.
            throw PackError.signatureMissing(path: path)
        }
        switch try PackFiles.kind(ofFileAt: path) {
        case .gzip:
            let directory = options.temporaryDirectory ?? FileManager.default.temporaryDirectory
            let destination = directory.appendingPathComponent("citypack-\(UUID().uuidString).sqlite").path
            try decompress(path, to: destination, manifest: options.manifest, maxBytes: options.maxUncompressedBytes)
            return DatabaseFile(path: destination, owned: true)
        case .sqlite:
            if let artifact = options.manifest?.artifact {
                let digest = try PackFiles.digest(ofFileAt: path)
                try check(.uncompressed, bytes: digest.bytes, hash: digest.sha256, against: artifact)
            }
            return DatabaseFile(path: path, owned: false)
        case .other:
            throw PackError.notAPack(path: path, message: "neither gzip nor SQLite data")
        }
    }

    /// The format version of an open database, after checking it is a pack this reader knows.
    /// - Throws: `PackError.notAPack` when the file is not a database (it fails on this first read),
    ///   `.wrongApplicationID`, `.unsupportedFormatVersion`.
    static func checkFormat(of db: SQLiteDatabase<PackError>) throws(PackError) -> Int32 {
        let applicationID: Int64
        let userVersion: Int64
        do {
            applicationID = try db.scalarInt("PRAGMA application_id")
            userVersion = try db.scalarInt("PRAGMA user_version")
        } catch {
            throw PackError.notAPack(path: db.path, message: db.errorMessage)
        }
        guard applicationID == Int64(PackSchema.applicationID) else {
            throw PackError.wrongApplicationID(found: Int32(truncatingIfNeeded: applicationID), expected: PackSchema.applicationID)
        }
        guard userVersion >= Int64(PackSchema.oldestReadableFormatVersion), userVersion <= Int64(PackSchema.formatVersion) else {
            throw PackError.unsupportedFormatVersion(found: Int32(truncatingIfNeeded: userVersion), supported: PackSchema.formatVersion)
        }
        return Int32(userVersion)
    }

    static func decompress(_ source: String, to destination: String, manifest: Manifest?, maxBytes: Int) throws(PackError) {
        let digests: PackFiles.Digests
        do {
            // With a manifest, the database may not grow beyond the size it declares.
            let limit = manifest.map { min(maxBytes, $0.artifact.uncompressedBytes) } ?? maxBytes
            digests = try PackFiles.inflate(gzip: source, to: destination, maxBytes: limit)
        } catch {
            // A damaged or substituted download: report it against the manifest's hash when that differs.
            if let artifact = manifest?.artifact, let digest = try? PackFiles.digest(ofFileAt: source) {
                try check(.compressed, bytes: digest.bytes, hash: digest.sha256, against: artifact)
            }
            throw error
        }
        guard let artifact = manifest?.artifact else { return }
        do {
            try check(.compressed, bytes: digests.compressedBytes, hash: digests.compressedSHA256, against: artifact)
            try check(.uncompressed, bytes: digests.uncompressedBytes, hash: digests.uncompressedSHA256, against: artifact)
        } catch {
            unlink(destination)
            throw error
        }
    }

    /// Compares a hash and size with the manifest's for one side of the artifact.
    /// - Throws: `PackError.hashMismatch`, then `.sizeMismatch`.
    static func check(_ which: PackError.Artifact, bytes: Int, hash: String, against artifact: Manifest.Artifact) throws(PackError) {
        let expectedHash = which == .compressed ? artifact.sha256 : artifact.uncompressedSha256
        let expectedBytes = which == .compressed ? artifact.bytes : artifact.uncompressedBytes
        if hash != expectedHash.lowercased() { throw PackError.hashMismatch(which, expected: expectedHash, actual: hash) }
        if bytes != expectedBytes { throw PackError.sizeMismatch(which, expected: expectedBytes, actual: bytes) }
    }
}
