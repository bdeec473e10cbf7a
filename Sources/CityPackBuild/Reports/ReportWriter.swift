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
    /// - Parameter json: report.json's text (``DiagnosticRenderer/json(_:toolVersion:)``).
    package static func write(json: String, stats: BuildStats, html: Data, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeIfChanged(Data(json.utf8), to: (folder as NSString).appendingPathComponent("report.json"))
        try writeIfChanged(html, to: (folder as NSString).appendingPathComponent("report.html"))
        try atomicWrite(Data(DiagnosticRenderer.encode(stats).utf8), to: (folder as NSString).appendingPathComponent("build-stats.json"), durable: false)
    }

    /// Writes a report (not durable) unless `path` already holds exactly `data` (an unchanged rebuild: only
    /// `build-stats.json`, which holds timings, is written again).
    static func writeIfChanged(_ data: Data, to path: String) throws {
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.size] as? NSNumber)?.intValue == data.count,
            let old = FileManager.default.contents(atPath: path), old == data
        {
            return
        }
        try atomicWrite(data, to: path, durable: false)
    }

    /// Writes `data` to `path` with the project's one atomic write (``AtomicFile/write(_:to:mode:durable:)``:
    /// a temporary beside it that the next build recognises as debris once this process is gone, `fsync`,
    /// rename). Missing parent folders of `path` are created first.
    /// - Parameter durable: whether to `fsync` (reports are made again by the next build: they skip it; the
    ///   baseline, which a user keeps, does not).
    package static func atomicWrite(_ data: Data, to path: String, durable: Bool = true) throws {
        try OutputFiles.createParent(of: path)
        try AtomicFile.write(data, to: path, durable: durable)
    }
}
