import CityPackDiagnostics
import Foundation
import Yams
import CityPackSupport

/// A fleet file (`citypack build --fleet fleet.yaml`): the cities built together and defaults for the run.
///
/// ```yaml
/// cities:            # city folders (or city files), relative to this file
///   - inputs/vaduz
///   - inputs/schaan
/// defaults:          # optional; command-line flags win
///   output: outputs  # output root, relative to this file
///   templates: templates
///   keep: 2          # previous data versions kept beside the current one
/// ```
public struct FleetFile: Sendable, Equatable {
    /// The city folders, resolved against the fleet file's folder, in file order.
    public var cities: [String]
    public var output: String?
    public var templates: String?
    public var keep: Int?
}

/// Reads fleet files, reporting every problem as `city.fleet_invalid` at its line and column.
public enum FleetFileLoader {
    /// Largest fleet file read.
    public static let maxBytes = 1 << 20

    /// The fleet file at `path`; nil when it has errors (all reported in `bag`).
    public static func load(_ path: String, bag: DiagnosticBag) -> FleetFile? {
        func fail(_ message: String, _ node: Node?) {
            let mark = node?.mark
            bag.report(
                Rules.cityFleetInvalid, message,
                at: SourceLocation(file: path, line: mark?.line ?? 1, column: mark?.column ?? 1))
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > maxBytes {
            bag.report(Rules.cityFleetInvalid, "the fleet file is \(size.intValue) bytes, more than \(maxBytes); not read", at: SourceLocation(file: path))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            bag.report(Rules.cityFleetInvalid, "cannot read the fleet file", at: SourceLocation(file: path))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            bag.report(Rules.cityFleetInvalid, "the fleet file is not UTF-8", at: SourceLocation(file: path, line: 1, column: 1))
            return nil
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            bag.report(Rules.cityFleetInvalid, CityFileLoader.describe(error), at: CityFileLoader.location(of: error, file: path))
            return nil
        } catch {
            bag.report(Rules.cityFleetInvalid, "\(error)", at: SourceLocation(file: path, line: 1, column: 1))
            return nil
        }
        guard let map = root?.mapping else {
            fail("the fleet file must be a mapping with a `cities:` list", root)
            return nil
        }
        let before = bag.errorCount
        let directory = PathText.parent(path)
        func resolve(_ p: String) -> String {
            p.hasPrefix("/") || directory.isEmpty ? p : (directory as NSString).appendingPathComponent(p)
        }
        let known = ["cities", "defaults"]
        for key in map.keys where !known.contains(key.string ?? "") {
            fail("unknown key '\(key.string ?? "?")'; expected one of \(known.joined(separator: ", "))", key)
        }
        var fleet = FleetFile(cities: [])
        if let list = map["cities"] {
            if let sequence = list.sequence {
                if sequence.isEmpty { fail("`cities:` lists no city", list) }
                var seen: [String: Node] = [:]
                for item in sequence {
                    guard let p = item.string, !p.isEmpty else {
                        fail("each entry of `cities:` is a city folder (a string)", item)
                        continue
                    }
                    let resolved = resolve(p)
                    let standard = (resolved as NSString).standardizingPath
                    if seen[standard] != nil {
                        fail("'\(p)' is listed twice", item)
                        continue
                    }
                    seen[standard] = item
                    if !FileManager.default.fileExists(atPath: resolved) {
                        fail("no such city folder: '\(p)' (resolved against the fleet file's folder: \(resolved))", item)
                        continue
                    }
                    fleet.cities.append(resolved)
                }
            } else {
                fail("`cities:` must be a list of city folders", list)
            }
        } else {
            fail("missing `cities:` (a list of city folders)", root)
        }
        if let defaults = map["defaults"] {
            if let d = defaults.mapping {
                let keys = ["output", "templates", "keep"]
                for key in d.keys where !keys.contains(key.string ?? "") {
                    fail("unknown key 'defaults.\(key.string ?? "?")'; expected one of \(keys.joined(separator: ", "))", key)
                }
                if let node = d["output"] {
                    if let s = node.string, !s.isEmpty { fleet.output = resolve(s) } else { fail("`defaults.output` must be a folder", node) }
                }
                if let node = d["templates"] {
                    if let s = node.string, !s.isEmpty { fleet.templates = resolve(s) } else { fail("`defaults.templates` must be a folder", node) }
                }
                if let node = d["keep"] {
                    if let n = node.int, n >= 0 { fleet.keep = n } else { fail("`defaults.keep` must be a whole number ≥ 0", node) }
                }
            } else {
                fail("`defaults:` must be a mapping (output, templates, keep)", defaults)
            }
        }
        return bag.errorCount > before ? nil : fleet
    }
}
