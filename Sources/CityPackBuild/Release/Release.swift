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

/// What `citypack publish` did (``SitePublisher/Report``).
package typealias SiteReport = SitePublisher.Report
/// Why `citypack publish` refused an output folder (``SitePublisher/Refusal``).
package typealias SiteRefusal = SitePublisher.Refusal

/// `citypack publish`: the site apps read, from an output folder.
package enum Sites {
    /// Publishes `output` into `site` (``SitePublisher/publish(output:site:)``).
    /// - Throws: ``SiteRefusal`` (nothing written) or ``ReleaseError`` (I/O).
    package static func publish(output: String, site: String) throws -> SiteReport {
        try SitePublisher.publish(output: output, site: site)
    }
}
