import CityPackDiagnostics
import CityPackIngest
import FuzzSupport

/// The project's category profile (templates/), loaded once.
public let profile: TemplatePOIProfile = {
    do {
        return try TemplatePOIProfile.load(templatesDirectory: repositoryRoot.appendingPathComponent("templates"))
    } catch {
        fatalError("cannot load templates: \(error)")
    }
}()

/// Reads one OSM file (XML or PBF) end to end, read + finish, with small limits so limit paths are reached too,
/// and asserts every POI coordinate is valid. Shared by FuzzOSM and FuzzPBF.
public func readAndCheck(path: String, displayPath: String, assembleEveryMultipolygon: Bool = false) {
    var options = OSMReadOptions(maxInputBytes: 1 << 20, maxTagsPerElement: 64, maxValueBytes: 256)
    options.assembleEveryMultipolygon = assembleEveryMultipolygon
    let reader = OSMReader(profile: profile, bag: DiagnosticBag(), options: options)
    do {
        try reader.read(file: path, displayPath: displayPath)
    } catch {
        fatalError("read threw for a readable file: \(error)")
    }
    for poi in reader.finish().pois {
        precondition(poi.coordinate.isValid, "POI \(poi.ref) has an invalid coordinate \(poi.coordinate)")
    }
}
