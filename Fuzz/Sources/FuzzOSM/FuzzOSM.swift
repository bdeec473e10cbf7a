import FuzzOSMReading
import FuzzSupport

/// The OSM XML reader, end to end (read + finish), with small limits so limit paths are reached too.
/// Inputs starting with the gzip magic are read as `.osm.gz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSM(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let gz = size >= 2 && data[0] == 0x1F && data[1] == 0x8B
    readAndCheck(path: writeScratch(gz ? "input.osm.gz" : "input.osm", data, size), displayPath: "fuzz.osm")
    return 0
}

@_cdecl("FuzzOSM_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    _ = profile
    return runFuzzer(argc, argv, fuzzOSM)
}
