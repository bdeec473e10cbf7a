import CityPackDiagnostics
import CityPackIngest
import Foundation
import FuzzSupport

/// The city file loader: the input is `city.yaml` (any bytes, not only UTF-8), in a folder with one source file
/// `map.osm` and one folder `gtfs/`, so paths in mutated inputs can resolve.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCityFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = writeScratch("city.yaml", data, size)
    let bag = DiagnosticBag()
    let city = CityFileLoader.load(path, knownRules: [], bag: bag)  // every `rules:` entry is then unknown: more paths to fuzz
    if city != nil { precondition(!(bag.errorCount > 0), "a city was returned despite errors") }
    if city == nil { precondition((bag.errorCount > 0), "no city and no error") }
    return 0
}

@_cdecl("FuzzCityFile_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    FileManager.default.createFile(atPath: scratch.appendingPathComponent("map.osm").path, contents: Data("<osm version=\"0.6\"/>".utf8))
    try? FileManager.default.createDirectory(at: scratch.appendingPathComponent("gtfs"), withIntermediateDirectories: true)
    return runFuzzer(argc, argv, fuzzCityFile)
}
