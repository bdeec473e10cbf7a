import CityPackDiagnostics
import CityPackIngest
import FuzzSupport

/// The CSV scanner with GTFS's strict options, then the lenient editorial options, over the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var strict = CSVOptions(newLineInValueSeverity: .error, maxRows: 10_000, maxFieldLength: 4_096,
        schema: CSVSchema(known: ["stop_id", "stop_name", "stop_lat", "stop_lon"], required: ["stop_id"]))
    strict.lenientTrailingCells = false
    var lenient = CSVOptions(newLineInValueSeverity: nil, trimWhitespace: false)
    lenient.lenientTrailingCells = true
    for options in [strict, lenient] {
        let bag = DiagnosticBag()
        CSVScanner.scan(bytes, file: "fuzz.csv", options: options, bag: bag) { row in
            for c in 0..<row.fields.count {
                _ = row.string(c)
                _ = row.location(c)
            }
        }
    }
    return 0
}

@_cdecl("FuzzCSV_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzCSV)
}
