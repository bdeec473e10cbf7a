import Foundation
import CityPackDiagnostics
import CityPackModel

/// Counts rows of one table and reports every 16 384 of them.
final class GTFSRowProgress {
    let file: String
    /// Estimated rows of the table.
    var total: Int64
    let report: @Sendable (String, Int64, Int64) -> Void
    private var rows: Int64 = 0

    init(file: String, total: Int64, report: @escaping @Sendable (String, Int64, Int64) -> Void) {
        self.file = file
        self.total = total
        self.report = report
    }

    func row() {
        rows += 1
        if rows & 0x3FFF == 0 { report(file, rows, max(total, rows)) }
    }

    func finish() { report(file, rows, rows) }

    /// Line feeds in `bytes`.
    static func lineFeeds(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var n: Int64 = 0
        for byte in bytes where byte == 0x0A { n += 1 }
        return n
    }
}
