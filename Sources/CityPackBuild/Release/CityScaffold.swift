import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel

/// What `citypack init` needs from ingest to write a new city: the city file's name and text, locale checks, the
/// copy scaffold for locales without a template, and a probe of the sources that would stop every build.
package enum CityScaffold {
    /// `city.yaml`.
    package static var cityFileName: String { CityFileLoader.fileName }

    /// The locale copy falls back to when a key is missing (`en`).
    package static var templateLocale: String { CopyReader.templateLocale }

    /// Whether `text` is a locale tag the city file accepts (`en`, `pt-BR`, `zh-Hant`).
    package static func isLocale(_ text: String) -> Bool { CityFileLoader.isLocale(text) }

    /// A source path as the city file names it: relative to the city's `directory`.
    package static func relativePath(of path: String, from directory: String) -> String {
        CityFileWriter.relativePath(of: path, from: directory)
    }

    /// The city file's text (``CityFileWriter/yaml(id:name:locales:bbox:osm:gtfs:attribution:timezone:)``). Without
    /// GTFS the time zone is derived from the bbox's centre and the POIs' country (``CityTimeZone``); with a feed,
    /// the feed's is used.
    package static func cityFile(
        id: String, name: String, locales: [String], bbox: BoundingBox, osm: [String], gtfs: [String], attribution: String,
        country: String? = nil
    ) -> String {
        let zone = gtfs.isEmpty ? CityTimeZone.nearest(to: bbox, country: country).id : nil
        return CityFileWriter.yaml(
            id: id, name: name, locales: locales, bbox: bbox, osm: osm, gtfs: gtfs, attribution: attribution,
            timezone: zone)
    }

    /// The locales of `locales` the templates have no copy file for.
    package static func localesWithoutTemplate(_ locales: [String], templates: TemplateSource) -> [String] {
        CopyScaffold.localesWithoutTemplate(locales, templates: templates)
    }

    /// A copy file for `locale` with every key of the template, untranslated; nil when there is no template.
    package static func untranslatedCopy(locale: String, cityName: String, templates: TemplateSource) -> String? {
        CopyScaffold.untranslatedFile(locale: locale, cityName: cityName, templates: templates)
    }

    /// Reads only enough of each source to tell whether it can be read at all (an OSM file that is not OSM, a
    /// GTFS feed that is not a feed); the problems go to `bag`. `fileSize` gives a file's size in bytes.
    package static func probe(osm: [String], gtfs: [String], fileSize: (String) -> Int64, bag: DiagnosticBag) {
        for file in osm {
            if let problem = OSMReader.unreadable(path: file, fileSize: fileSize(file)) {
                bag.report(Rules.osmNotOSM, problem, at: SourceLocation(file: file))
            }
        }
        for path in gtfs { _ = GTFSReader.probe(path: path, displayPath: path, bag: bag) }
    }
}
