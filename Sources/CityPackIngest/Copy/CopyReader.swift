import CityPackDiagnostics
import CityPackModel
import Foundation
import Yams

/// Reads copy files (`<locale>.yaml`) from `templates/copy/` and from a city's copy folder into a ``CopyTable``:
/// for each city locale the template's strings, overlaid key by key by the city's.
///
/// A copy file is a YAML mapping of dotted keys to a message or to a map of CLDR plural categories:
///
/// ```yaml
/// app.download_city: "Download {city} for offline use"
/// offline.downloading.remaining:
///   one: "{count} file left"
///   other: "{count} files left"
/// ```
///
/// Reported here: `copy.syntax` (YAML or shape), `copy.invalid_key`, `copy.invalid_message_syntax`,
/// `copy.unknown_locale` (a city file for a locale the city does not ship). Everything about the table as a whole
/// is the validator's (`CopyValidator`). Never prints; stateless and thread-safe.
public enum CopyReader {
    /// Largest copy file read, in bytes (1 MiB); larger ones are reported and skipped.
    public static let maxFileSize = 1 << 20

    /// Builds the copy table of a city from a template copy folder (`templates/copy`, which may not exist: no
    /// defaults); see ``read(templates:cityDirectory:cityFolder:display:defaultLocale:locales:bag:)``.
    public static func read(
        templateDirectory: String?, cityDirectory: String?, cityFolder: String? = nil, display: (String) -> String = { $0 },
        defaultLocale: String, locales: [String], bag: DiagnosticBag
    ) -> CopyTable {
        read(
            templates: templateDirectory.map(TemplateSource.folder), cityDirectory: cityDirectory, cityFolder: cityFolder,
            display: display, defaultLocale: defaultLocale, locales: locales, bag: bag)
    }

    /// Builds the copy table of a city.
    /// - Parameters:
    ///   - templates: the template copy files (`templates/copy`, or the built-in templates' `copy/`); nil: none.
    ///   - cityDirectory: the city's copy folder, if any.
    ///   - cityFolder: where the city's copy files go, whether or not the folder exists (for the messages that
    ///     say where to add a string); default `cityDirectory`.
    ///   - display: turns a path into the form shown in diagnostics.
    ///   - defaultLocale: the city's default locale.
    ///   - locales: the city's locales.
    ///   - bag: receives diagnostics.
    public static func read(
        templates: TemplateSource?, cityDirectory: String?, cityFolder: String? = nil, display: (String) -> String = { $0 },
        defaultLocale: String, locales: [String], bag: DiagnosticBag
    ) -> CopyTable {
        var table = CopyTable(defaultLocale: defaultLocale, locales: locales)
        table.cityFolder = (cityFolder ?? cityDirectory).map(display)
        let wanted = Set(locales)
        var templateEntries: [String: CopyEntry] = [:]
        for (source, fromTemplate) in [(templates, true), (cityDirectory.map(TemplateSource.folder), false)] {
            guard let source else { continue }
            for (locale, name) in files(in: source) {
                let path = source.path(name)
                let shown = source.isBuiltIn ? path : display(path)
                if fromTemplate && locale == templateLocale {
                    // The templates' source language: what a locale without a template falls back to. Its own
                    // problems are reported when it is a city locale (below), never otherwise.
                    templateEntries = readFile(name, in: source, display: shown, fromTemplate: true, bag: DiagnosticBag()).0
                }
                guard wanted.contains(locale) else {
                    if !fromTemplate {
                        bag.report(Rules.copyUnknownLocale,
                            "copy file for `\(locale)`, which is not in the city's locales (\(locales.joined(separator: ", "))); ignored",
                            at: SourceLocation(file: shown, line: 1, column: 1))
                    }
                    continue
                }
                table.files[locale, default: []].append(shown)
                let (entries, rejected) = readFile(name, in: source, display: shown, fromTemplate: fromTemplate, bag: bag)
                for (key, entry) in entries {
                    table.entries[locale, default: [:]][key] = entry
                    table.rejected[locale]?.remove(key)
                }
                for key in rejected {
                    table.entries[locale]?[key] = nil
                    table.rejected[locale, default: []].insert(key)
                }
            }
        }
        table.fillDefaultLocale(from: templateEntries, templateLocale: templateLocale)
        return table
    }

    /// The language the shipped templates are written in, and the last fallback of every locale.
    public static let templateLocale = "en"

    /// The locales of `locales` that have no template copy file in `templates` (the copy files' folder).
    public static func localesWithoutTemplate(_ locales: [String], templates: TemplateSource) -> [String] {
        let have = Set(files(in: templates).map(\.0))
        return locales.filter { !have.contains($0) }
    }

    /// `<locale>.yaml` files of a source's folder: (locale, file name), sorted by locale (other files are ignored).
    static func files(in source: TemplateSource) -> [(String, String)] {
        source.files().filter { $0.hasSuffix(".yaml") }.compactMap { name in
            let locale = String(name.dropLast(5))
            guard CityFileLoader.isLocale(locale) else { return nil }
            return (locale, name)
        }
    }

    /// Reads one copy file, `name` of `source`. Returns its entries and the keys it defines that were rejected.
    static func readFile(
        _ name: String, in source: TemplateSource, display: String, fromTemplate: Bool, bag: DiagnosticBag
    ) -> ([String: CopyEntry], Set<String>) {
        let whole = SourceLocation(file: display, line: 1, column: 1)
        let size = source.size(name) ?? 0
        if size > maxFileSize {
            bag.report(Rules.copySyntax, "copy file is \(size) bytes, over the limit of \(maxFileSize)", at: whole)
            return ([:], [])
        }
        guard let data = source.contents(name) else {
            bag.report(Rules.packIOFailure, "cannot read \(display)", at: SourceLocation(file: display))
            return ([:], [])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            bag.report(Rules.copySyntax, "copy file is not UTF-8", at: whole)
            return ([:], [])
        }
        return parse(text, display: display, fromTemplate: fromTemplate, bag: bag)
    }

    /// Parses copy-file text (see the type's documentation for the shape).
    public static func parse(
        _ text: String, display: String, fromTemplate: Bool = false, bag: DiagnosticBag
    ) -> ([String: CopyEntry], Set<String>) {
        func at(_ node: Node?) -> SourceLocation {
            guard let mark = node?.mark else { return SourceLocation(file: display, line: 1, column: 1) }
            return SourceLocation(file: display, line: mark.line, column: mark.column)
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, .basic) else { return ([:], []) }  // empty or only comments
            root = node
        } catch let error as YamlError {
            bag.report(Rules.copySyntax, CityFileLoader.describe(error), at: CityFileLoader.location(of: error, file: display))
            return ([:], [])
        } catch {
            bag.report(Rules.copySyntax, "\(error)", at: at(nil))
            return ([:], [])
        }
        guard let mapping = root.mapping else {
            if root.scalar?.string.isEmpty == true { return ([:], []) }
            bag.report(Rules.copySyntax, "a copy file is a mapping of keys to strings or plural maps", at: at(root))
            return ([:], [])
        }
        var entries: [String: CopyEntry] = [:]
        var rejected: Set<String> = []
        for (keyNode, valueNode) in mapping {
            guard let key = keyNode.scalar?.string else {
                bag.report(Rules.copySyntax, "keys must be strings", at: at(keyNode))
                continue
            }
            guard CopyKeys.isValidKey(key) else {
                bag.report(Rules.copyInvalidKey,
                    "key `\(key)` must be dotted lowercase words of letters, digits and `_` (e.g. offline.weak_network.title)",
                    at: at(keyNode), entity: key)
                continue
            }
            let location = at(keyNode)
            if let scalar = valueNode.scalar {
                do {
                    let message = try CopyMessage.parse(scalar.string)
                    // `.other` of a plain message: where its text is, so text problems point at the value.
                    entries[key] = CopyEntry(value: .text(message), location: location,
                        formLocations: [.other: at(valueNode)], fromTemplate: fromTemplate)
                } catch {
                    bag.report(Rules.copyInvalidMessageSyntax, "`\(key)`: \(error)", at: at(valueNode), entity: key)
                    rejected.insert(key)
                }
            } else if let forms = valueNode.mapping {
                var parsed: [PluralCategory: CopyMessage] = [:]
                var formLocations: [PluralCategory: SourceLocation] = [:]
                var ok = true
                for (formNode, formValue) in forms {
                    guard let name = formNode.scalar?.string, let category = PluralCategory(rawValue: name) else {
                        bag.report(Rules.copySyntax,
                            "`\(key)`: plural forms are zero, one, two, few, many and other; got `\(formNode.scalar?.string ?? "?")`",
                            at: at(formNode), entity: key)
                        ok = false
                        continue
                    }
                    guard let textValue = formValue.scalar?.string else {
                        bag.report(Rules.copySyntax, "`\(key).\(name)` must be a string", at: at(formValue), entity: key)
                        ok = false
                        continue
                    }
                    do {
                        parsed[category] = try CopyMessage.parse(textValue)
                        formLocations[category] = at(formValue)
                    } catch {
                        bag.report(Rules.copyInvalidMessageSyntax, "`\(key)` (\(name)): \(error)", at: at(formValue), entity: key)
                        ok = false
                    }
                }
                if ok && !parsed.isEmpty {
                    entries[key] = CopyEntry(value: .plural(parsed), location: location, formLocations: formLocations,
                        fromTemplate: fromTemplate)
                } else {
                    if ok { bag.report(Rules.copySyntax, "`\(key)`: a plural map needs at least an `other` form", at: at(valueNode), entity: key) }
                    rejected.insert(key)
                }
            } else {
                bag.report(Rules.copySyntax, "`\(key)` must be a string or a map of plural forms", at: at(valueNode), entity: key)
                rejected.insert(key)
            }
        }
        return (entries, rejected)
    }
}
