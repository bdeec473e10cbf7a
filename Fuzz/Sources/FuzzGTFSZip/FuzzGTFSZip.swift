import CityPackDiagnostics
import CityPackIngest
import Foundation
import FuzzSupport

/// The GTFS reader over a zip archive: the input is the archive's bytes. Limits are small so the bomb and
/// size checks are reached by mutated headers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGTFSZip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = writeScratch("feed.zip", data, size)
    let bag = DiagnosticBag()
    let options = GTFSReadOptions(maxFileSize: 1 << 20, maxTotalSize: 4 << 20, maxRows: 10_000, maxFieldLength: 4_096)
    do {
        _ = try GTFSReader.read(path: path, displayPath: "feed.zip", bag: bag, options: options)
    } catch {
        fatalError("read threw for an existing file: \(error)")
    }
    return 0
}

@_cdecl("FuzzGTFSZip_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzGTFSZip)
}
