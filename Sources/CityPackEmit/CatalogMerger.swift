import CityPackFormat
import Foundation
import CityPackSupport

/// Joins the output folders of a sharded fleet build (`citypack catalog --merge DIR… --output OUT`): every city
/// folder of every shard goes into OUT, then OUT gets one catalog, built from the manifests as a one-machine
/// build's is, so its bytes (catalog, manifests, packs) equal a one-machine build's.
///
/// A shard is taken only when its build finished: its folder has a `catalog.json` (a fleet writes it after its
/// last city) listing exactly the cities whose manifests it holds. Nothing is copied when any shard is refused or
/// two shards (or a shard and OUT) hold different packs of one city version.
package enum CatalogMerger {
    /// Why a merge was refused; nothing was written.
    package enum Refusal: Error, Sendable, CustomStringConvertible, Equatable {
        case missingFolder(String)
        /// The shard has no catalog: its build did not finish.
        case unfinished(String)
        /// The shard's catalog does not match its city folders.
        case inconsistent(folder: String, detail: String)
        /// Two different packs of one city version.
        case conflict(city: String, version: Int, first: String, second: String)

        package var description: String {
            switch self {
            case .missingFolder(let f): "\(f): no such folder"
            case .unfinished(let f):
                "\(f) has no \(PackSchema.catalogName): its build did not finish (a shard stopped or killed mid-build?); "
                    + "run that shard again before merging"
            case .inconsistent(let f, let d): "\(f): \(d); its build did not finish cleanly: run that shard again"
            case .conflict(let c, let v, let a, let b):
                "two different packs of \(c) data version \(v): \(a) and \(b); each city must come from one build"
            }
        }
    }

    /// Merges `folders` into `output` and writes its catalog; returns the catalog's path.
    /// - Throws: ``Refusal`` (nothing written) or ``EmitError`` (I/O, located).
    @discardableResult
    package static func merge(_ folders: [String], into output: String, signingKey: SigningKey? = nil) throws -> String {
        let fm = FileManager.default
        // city id → (folder, manifest) over every shard, checked before anything is copied.
        var chosen: [String: (folder: String, manifest: Manifest)] = [:]
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw Refusal.missingFolder(folder)
            }
            let catalogPath = (folder as NSString).appendingPathComponent(PackSchema.catalogName)
            guard let data = fm.contents(atPath: catalogPath) else { throw Refusal.unfinished(folder) }
            guard let catalog = try? JSONDecoder().decode(Catalog.self, from: data) else {
                throw Refusal.inconsistent(folder: folder, detail: "\(PackSchema.catalogName) is not a catalog")
            }
            let rebuilt = CatalogWriter.catalog(outputDirectory: folder)
            let listed = Set(catalog.packs.map { "\($0.id)@\($0.dataVersion)#\($0.sha256)" })
            let present = Set(rebuilt.packs.map { "\($0.id)@\($0.dataVersion)#\($0.sha256)" })
            guard listed == present else {
                let extra = present.subtracting(listed).sorted(), missing = listed.subtracting(present).sorted()
                throw Refusal.inconsistent(
                    folder: folder,
                    detail: "its catalog lists \(missing.isEmpty ? "no missing pack" : "packs not in the folder (\(missing.joined(separator: ", ")))")"
                        + " and \(extra.isEmpty ? "every pack there" : "misses packs that are (\(extra.joined(separator: ", ")))")")
            }
            for entry in catalog.packs {
                let manifestPath = (folder as NSString).appendingPathComponent("\(entry.id)/\(PackSchema.manifestName)")
                guard let bytes = fm.contents(atPath: manifestPath), let manifest = try? JSONDecoder().decode(Manifest.self, from: bytes)
                else { throw Refusal.inconsistent(folder: folder, detail: "\(entry.id)/\(PackSchema.manifestName) cannot be read") }
                if let earlier = chosen[entry.id] {
                    if earlier.manifest.dataVersion != manifest.dataVersion || earlier.manifest.artifact.sha256 != manifest.artifact.sha256 {
                        throw Refusal.conflict(
                            city: entry.id, version: manifest.dataVersion,
                            first: "\(earlier.folder)/\(entry.id) (\(earlier.manifest.artifact.sha256.prefix(12)))",
                            second: "\(folder)/\(entry.id) (\(manifest.artifact.sha256.prefix(12)))")
                    }
                    continue
                }
                chosen[entry.id] = (folder, manifest)
            }
        }
        // A city OUT already holds in the same version must be the same pack.
        for (id, source) in chosen {
            let existing = (output as NSString).appendingPathComponent("\(id)/\(PackSchema.manifestName)")
            guard let bytes = fm.contents(atPath: existing), let manifest = try? JSONDecoder().decode(Manifest.self, from: bytes)
            else { continue }
            if manifest.dataVersion == source.manifest.dataVersion && manifest.artifact.sha256 != source.manifest.artifact.sha256 {
                throw Refusal.conflict(
                    city: id, version: manifest.dataVersion, first: "\(output)/\(id) (\(manifest.artifact.sha256.prefix(12)))",
                    second: "\(source.folder)/\(id) (\(source.manifest.artifact.sha256.prefix(12)))")
            }
        }
        try OutputFiles.makeDirectory(output)
        try OutputLock.withLock(outputDirectory: output) { () throws(EmitError) in
            for id in chosen.keys.sorted() {
                let from = (chosen[id]!.folder as NSString).appendingPathComponent(id)
                try copyCity(from: from, to: (output as NSString).appendingPathComponent(id))
            }
        }
        return try CatalogWriter.write(outputDirectory: output, signingKey: signingKey)
    }

    /// Copies a city folder file by file (each through a temporary name and a rename), its `manifest.json` last,
    /// so a reader of OUT sees the city's previous release or the new one.
    static func copyCity(from: String, to: String) throws(EmitError) {
        let fm = FileManager.default
        try OutputFiles.makeDirectory(to)
        var files: [String] = []
        if let walker = fm.enumerator(atPath: from) {
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = (from as NSString).appendingPathComponent(relative)
                guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                if (relative as NSString).lastPathComponent.hasPrefix(".") { continue }
                files.append(relative)
            }
        }
        files.sort()
        let manifestLast = files.filter { $0 != PackSchema.manifestName } + files.filter { $0 == PackSchema.manifestName }
        // Every file is copied under its temporary name first; the copies are flushed in one batch, then renamed
        // in order (the manifest last), then their folders flushed.
        var moves: [(temporary: String, target: String)] = []
        do {
            for relative in manifestLast {
                let source = (from as NSString).appendingPathComponent(relative)
                let target = (to as NSString).appendingPathComponent(relative)
                try OutputFiles.makeDirectory(PathText.parent(target))
                if OutputFiles.sameContents(source, target) { continue }
                let temporary = (PathText.parent(target) as NSString)
                    .appendingPathComponent(OutputFiles.temporaryName(for: (target as NSString).lastPathComponent))
                moves.append((temporary, target))
                try OutputFiles.copy(source, to: temporary)
            }
            try OutputFiles.flushAll(moves.map(\.temporary))
        } catch {
            for move in moves { unlink(move.temporary) }
            throw error
        }
        for (index, move) in moves.enumerated() {
            do { try OutputFiles.rename(move.temporary, move.target) } catch {
                for rest in moves[index...] { unlink(rest.temporary) }
                throw error
            }
        }
        for folder in Set(moves.map { PathText.parent($0.target) }).union([to]).sorted() { OutputFiles.flushDirectory(folder) }
    }
}
