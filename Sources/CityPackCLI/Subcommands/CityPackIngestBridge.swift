import CityPackDiagnostics
import CityPackIngest
import CityPackModel

/// Small pass-throughs to the ingest library for commands that only need the city file.
enum CityPackIngestBridge {
    static func loadCity(_ path: String, bag: DiagnosticBag) -> City? {
        CityFileLoader.load(path, bag: bag)
    }
}
