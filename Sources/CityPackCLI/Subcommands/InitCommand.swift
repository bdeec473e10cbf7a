import ArgumentParser
import CityPackBuild
import CityPackCompiler
import CityPackDiagnostics
import CityPackFormat
import CityPackSupport
import Foundation

/// `citypack init <dir> --osm FILE...`: writes a city file that `build` accepts.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a new city: write <dir>/city.yaml from sources (bbox derived from the data).",
        discussion: "Exit codes: 0 written, 1 the sources have errors, 64 usage, 66 a source is missing.")

    @Argument(help: "City directory to create or fill (e.g. inputs/vaduz).")
    var directory: String

    @Option(name: .long, parsing: .upToNextOption, help: "OSM sources: XML (.osm, .osm.gz) or PBF (.osm.pbf), recognised by content.")
    var osm: [String] = []

    @Option(name: .long, parsing: .upToNextOption, help: "GTFS feeds (folder or .zip).")
    var gtfs: [String] = []

    @Option(name: .long, help: "Display name (default: from the folder name).")
    var name: String?

    @Option(name: .long, help: "City id: lowercase letters, digits, '-', '_' (default: from the folder name).")
    var id: String?

    @Option(name: .long, help: "Comma-separated locales, the default one first.")
    var locales: String = "en"

    // `.unconditional`: cities west of Greenwich or south of the equator start with '-' (`--bbox -117.2,36.3,…`).
    @Option(name: .long, parsing: .unconditional, help: "MINLON,MINLAT,MAXLON,MAXLAT in degrees (default: derived from the data), e.g. --bbox -117.2,36.3,-116.4,37.0; MINLON > MAXLON is a box across the antimeridian (--bbox 179.95,-16.9,-179.95,-16.7).")
    var bbox: String?

    @Option(name: .long, help: "Templates folder for the category profile (default: discovered).")
    var templates: String?

    @Flag(name: .long, help: "Overwrite an existing city.yaml.")
    var force = false

    func validate() throws {
        if osm.isEmpty && gtfs.isEmpty { throw ValidationError("give at least one source: --osm FILE or --gtfs PATH") }
        if let bbox, Self.parseBBox(bbox) == nil {
            throw ValidationError(
                "--bbox must be MINLON,MINLAT,MAXLON,MAXLAT in degrees with MINLAT < MAXLAT and MINLON ≠ MAXLON "
                    + "(MINLON > MAXLON: a box across the antimeridian, narrower than 180°)")
        }
        if let id, !id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) || id.isEmpty {
            throw ValidationError("--id must use lowercase ASCII letters, digits, '-' or '_'")
        }
        for locale in locales.split(separator: ",") where !CityScaffold.isLocale(String(locale)) {
            throw ValidationError("'\(locale)' is not a locale tag (e.g. en, fr, pt-BR)")
        }
    }

    static func parseBBox(_ text: String) -> BoundingBox? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let a = parts[0], let b = parts[1], let c = parts[2], let d = parts[3] else { return nil }
        let box = BoundingBox(minLon: a, minLat: b, maxLon: c, maxLat: d)
        // a > c: the box crosses the antimeridian (runs east from a through ±180° to c).
        return box.isValid && a != c && b < d && !(box.crossesAntimeridian && box.lonSpan > 180) ? box : nil
    }

    func run() throws {
        for path in osm + gtfs where !FileManager.default.fileExists(atPath: path) {
            throw CLIError.missingInput("no such source: \(path)")
        }
        let fm = FileManager.default
        let cityFile = (directory as NSString).appendingPathComponent(CityScaffold.cityFileName)
        if fm.fileExists(atPath: cityFile) && !force {
            throw CLIError.usage("\(cityFile) already exists; use --force to overwrite")
        }
        // Data problems are `check`'s business (an editor may downgrade rules in the city file); init only needs
        // the extent, and says how many problems it saw.
        let bag = DiagnosticBag()
        var box = bbox.flatMap(Self.parseBBox)
        var measured: DataExtent.Result?
        if box == nil {
            measured = DataExtent.measure(
                osm: osm, gtfs: gtfs, templates: templates ?? ToolEnvironment.templates, directory: directory, bag: bag)
            box = measured?.box
        }
        guard let box else {
            Terminal.err(DiagnosticRenderer.human(bag.diagnostics, limit: 50, colour: Terminal.colour))
            throw CLIError.dataErrors(
                "no bounding box could be derived from the sources"
                    + (bag.hasErrors ? " (they hold no readable position: see the errors above)" : "")
                    + "; pass --bbox=MINLON,MINLAT,MAXLON,MAXLAT")
        }
        if measured == nil {
            // With --bbox the sources are not read; still name what would stop every build.
            let probes = DiagnosticBag()
            CityScaffold.probe(
                osm: osm, gtfs: gtfs,
                fileSize: { ((try? fm.attributesOfItem(atPath: $0))?[.size] as? NSNumber)?.int64Value ?? 0 }, bag: probes)
            let stopping = probes.diagnostics.filter { $0.severity == .error }
            if !stopping.isEmpty {
                Terminal.err(DiagnosticRenderer.human(stopping, limit: 50, colour: Terminal.colour))
                Terminal.err("citypack: note: the city file is written, but every build fails until "
                    + "\(stopping.count == 1 ? "this is" : "these are") fixed\n")
            }
        }
        do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw CLIError.ioFailure("cannot create \(directory): \(error.localizedDescription)")
        }
        let folder = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        let cityID = id ?? Self.slug(folder)
        let display = name ?? folder.prefix(1).uppercased() + folder.dropFirst()
        let locs = locales.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        let rel = { (p: String) in CityScaffold.relativePath(of: p, from: directory) }
        let text = CityScaffold.cityFile(
            id: cityID, name: display, locales: locs, bbox: box, osm: osm.map(rel), gtfs: gtfs.map(rel),
            attribution: osm.isEmpty ? "" : "© OpenStreetMap contributors, ODbL 1.0", country: measured?.country)
        do { try text.write(toFile: cityFile, atomically: true, encoding: .utf8) } catch {
            throw CLIError.ioFailure("cannot write \(cityFile): \(error.localizedDescription)")
        }
        Terminal.out(cityFile + "\n")
        if let measured, let left = measured.droppedExtent {
            var parts: [String] = []
            if measured.droppedStops > 0 { parts.append("\(measured.droppedStops) served stop\(measured.droppedStops == 1 ? "" : "s")") }
            if measured.droppedPOIs > 0 { parts.append("\(measured.droppedPOIs) POI\(measured.droppedPOIs == 1 ? "" : "s")") }
            Terminal.err(
                "note: the bbox holds the main cluster of the city's places; \(parts.joined(separator: " and ")) far "
                    + "from it lie outside, spanning [\([left.minLon, left.minLat, left.maxLon, left.maxLat].map { DecimalText.fixed($0, places: 4) }.joined(separator: ", "))]; "
                    + "pass --bbox to choose the box yourself\n")
        }
        if let measured, measured.lineStopsKept > 0 {
            let n = measured.lineStopsKept
            Terminal.err(
                "note: the bbox also holds \(n) stop\(n == 1 ? "" : "s") outside the main cluster served by lines that "
                    + "serve it (their termini and stops on the way, up to \(Int(DataExtent.terminusReach * 111)) km out)\n")
        }
        try scaffoldCopy(locales: locs, cityName: display)
        if bag.errorCount + bag.warningCount > 0 {
            Terminal.err(
                "note: reading the sources gave \(bag.errorCount) errors and \(bag.warningCount) warnings; "
                    + "run `citypack check \(directory)` to see them\n")
        }
    }

    /// For each locale the templates do not speak: says so, and writes `copy/<locale>.yaml` with every template
    /// string commented out (English text) for editors to translate. An existing file is left alone.
    func scaffoldCopy(locales: [String], cityName: String) throws {
        let templateCopy = TemplateLocator.locate(explicit: templates ?? ToolEnvironment.templates, cityPath: directory).subfolder("copy")
        let missing = CityScaffold.localesWithoutTemplate(locales, templates: templateCopy)
        guard !missing.isEmpty else { return }
        let copyDir = (directory as NSString).appendingPathComponent("copy")
        var written: [String] = []
        for locale in missing {
            let file = (copyDir as NSString).appendingPathComponent("\(locale).yaml")
            guard !FileManager.default.fileExists(atPath: file),
                let text = CityScaffold.untranslatedCopy(locale: locale, cityName: cityName, templates: templateCopy)
            else { continue }
            do {
                try FileManager.default.createDirectory(atPath: copyDir, withIntermediateDirectories: true)
                try text.write(toFile: file, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.ioFailure("cannot write \(file): \(error.localizedDescription)")
            }
            written.append(file)
            Terminal.out(file + "\n")
        }
        let fallback = locales.first { !missing.contains($0) } ?? CityScaffold.templateLocale
        Terminal.err(
            "note: no template copy for \(missing.joined(separator: ", ")); their strings fall back to \(fallback) "
                + "(warnings, not errors) until translated"
                + (written.isEmpty ? "" : " in \(written.joined(separator: ", "))") + "\n")
    }

    /// Lowercase ASCII id from a folder name.
    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var out = ""
        for c in folded {
            if c.isASCII && (c.isLetter || c.isNumber) { out.append(c) } else if !out.hasSuffix("-") { out.append("-") }
        }
        let trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "city" : trimmed
    }
}
