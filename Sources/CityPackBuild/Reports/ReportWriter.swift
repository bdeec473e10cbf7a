import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import Foundation
import CityPackSupport

/// Writes the report files of a build or check into `<output>/<city>/`: `report.json` (the `--format json`
/// document, complete), `report.html` (self-contained page with a map) and `build-stats.json` (stage timings
/// and counts). Each file goes to a temporary name in the same folder and is renamed into place, so a reader
/// never sees half a report. Reports are written on every run, also when the build fails.
///
/// `build-stats.json` holds wall-clock timings, which differ between runs; it is kept out of the manifest
/// and the pack on purpose so that those stay byte-identical for the same inputs.
package enum ReportWriter {
    /// The folder reports of `city` go to.
    package static func folder(output: String, city: String) -> String {
        (output as NSString).appendingPathComponent(city)
    }

    /// Writes the three report files.
    /// - Throws: the first I/O error (the caller turns it into exit code 74).
    package static func write(
        _ report: DiagnosticReport, stats: BuildStats, html: String, to folder: String, toolVersion: String
    ) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try atomicWrite(Data(DiagnosticRenderer.json(report, toolVersion: toolVersion).utf8), to: (folder as NSString).appendingPathComponent("report.json"))
        try atomicWrite(Data(html.utf8), to: (folder as NSString).appendingPathComponent("report.html"))
        try atomicWrite(Data(DiagnosticRenderer.encode(stats).utf8), to: (folder as NSString).appendingPathComponent("build-stats.json"))
    }

    /// Writes `data` to `path` through a unique temporary file in the same folder and `rename(2)`.
    ///
    /// The temporary file is written in place (`Data.write` without `.atomic`): `FileManager.createFile` and
    /// atomic writes go through a second hidden file of Foundation's own (`.dat.nosync…`), which a build killed
    /// at that moment would leave behind under a name the next build cannot recognise as its debris.
    /// Missing parent folders of `path` are created first.
    package static func atomicWrite(_ data: Data, to path: String) throws {
        try OutputFiles.createParent(of: path)
        let dir = PathText.parent(path)
        let tmp = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        do { try data.write(to: URL(fileURLWithPath: tmp)) } catch {
            unlink(tmp)
            throw error
        }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
