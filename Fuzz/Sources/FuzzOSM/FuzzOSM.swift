import CityPackDiagnostics
import CityPackIngest
import Foundation
import FuzzSupport

/// The project's category profile (templates/), loaded once.
let profile: TemplatePOIProfile = {
    do {
        return try TemplatePOIProfile.load(templatesDirectory: repositoryRoot.appendingPathComponent("templates"))
    } catch {
        fatalError("cannot load templates: \(error)")
    }
}()

/// The OSM XML reader, end to end (read + finish), with small limits so limit paths are reached too.
/// Inputs starting with the gzip magic are read as `.osm.gz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSM(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let gz = size >= 2 && data[0] == 0x1F && data[1] == 0x8B
    let path = writeScratch(gz ? "input.osm.gz" : "input.osm", data, size)
    let bag = DiagnosticBag()
    let reader = OSMReader(profile: profile, bag: bag,
        options: OSMReadOptions(maxInputBytes: 1 << 20, maxTagsPerElement: 64, maxValueBytes: 256))
    do {
        try reader.read(file: path, displayPath: "fuzz.osm")
    } catch {
        fatalError("read threw for a readable file: \(error)")
    }
    let result = reader.finish()
    for poi in result.pois {
        precondition(poi.coordinate.isValid, "POI \(poi.ref) has an invalid coordinate \(poi.coordinate)")
    }
    return 0
}

@_cdecl("FuzzOSM_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    _ = profile
    return runFuzzer(argc, argv, fuzzOSM)
}
