import CityPackEmit

/// The release side of a build as a command line sets it, and the catalog operations beside `build`. The CLI
/// names these through the build layer and imports no stage module: the emitter's types keep their home in
/// CityPackEmit.

/// What the emitter is told: versions kept, the signing key, whether the catalog is written (``EmitOptions``).
package typealias ReleaseOptions = EmitOptions
/// An Ed25519 signing key for manifests and catalogs (``SigningKey``).
package typealias ReleaseKey = SigningKey
/// A failure writing a release's files, with the path (``EmitError``).
package typealias ReleaseError = EmitError
/// Why `catalog --merge` refuses its folders (``CatalogMerger/Refusal``).
package typealias CatalogRefusal = CatalogMerger.Refusal

/// `outputs/catalog.json`: rebuilt from the packs in a folder, or merged from several folders.
package enum Catalogs {
    /// Merges the catalogs of `folders` into `output`; returns the written catalog's path.
    /// - Throws: ``CatalogRefusal`` for folders that cannot be merged, ``ReleaseError`` for I/O.
    package static func merge(_ folders: [String], into output: String, signingKey: ReleaseKey?) throws -> String {
        try CatalogMerger.merge(folders, into: output, signingKey: signingKey)
    }

    /// Rebuilds `<outputDirectory>/catalog.json` from the packs in it; returns its path.
    /// - Throws: ``ReleaseError`` for I/O.
    package static func write(outputDirectory: String, signingKey: ReleaseKey?) throws(ReleaseError) -> String {
        try CatalogWriter.write(outputDirectory: outputDirectory, signingKey: signingKey)
    }
}
