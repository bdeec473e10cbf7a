import CityPackCache
import CityPackIngest
import Foundation

/// Reads chosen lines of a source file, decompressing gzip and bzip2 (``OSMInputStream``), stopping
/// after the last line asked for. Lines longer than ``maxLineBytes`` are cut. Files that do not exist (entries
/// inside a GTFS zip, a deleted file) or are folders give no lines.
package enum SourceLines {
    /// Longest line kept, in bytes.
    package static let maxLineBytes = SourceLineMemo.maxLineBytes

    /// The bytes of each line of `file` listed in `wanted` (1-based, without the line end) that exists; from the
    /// build cache's memo while the file is as it was (``SourceLineMemo``), else read.
    package static func read(file: String, lines wanted: Set<Int>) -> [Int: [UInt8]] {
        guard !wanted.isEmpty, let sha256 = DigestMemo.settledSHA256(file) else { return scan(file: file, lines: wanted) }
        if let known = SourceLineMemo.lines(file, sha256: sha256, wanted: wanted) { return known }
        let lines = scan(file: file, lines: wanted)
        SourceLineMemo.remember(file, sha256: sha256, wanted: wanted, lines: lines)
        return lines
    }

    /// The lines listed of `file`, read from it.
    static func scan(file: String, lines wanted: Set<Int>) -> [Int: [UInt8]] {
        guard let last = wanted.max(), last > 0 else { return [:] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { return [:] }
        // OSM PBF has no lines: its locations are (blob, element) numbers, so there is no text to show.
        guard !OSMReader.isPBF(path: file) else { return [:] }
        var out: [Int: [UInt8]] = [:]
        var current: [UInt8] = []
        var lineNumber = 1
        // The lines asked for, in order: the next one is compared, not looked up, on each line end.
        let pending = wanted.filter { $0 > 0 }.sorted()
        var next = 0
        var keeping = pending.first == 1
        var done = false
        func consume(_ buffer: UnsafeRawBufferPointer) {
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                // memchr finds the line ends (a byte loop was a fifth of an unchanged rebuild's time on 44 MB of XML).
                let end = memchr(base + start, 0x0A, buffer.count - start).map { base.distance(to: UnsafeRawPointer($0)) }
                if keeping {
                    let take = min((end ?? buffer.count) - start, max(0, maxLineBytes - current.count))
                    current.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<start + take]))
                }
                guard let end else { return }
                if keeping {
                    if current.last == 0x0D { current.removeLast() }
                    out[lineNumber] = current
                    next += 1
                }
                current.removeAll(keepingCapacity: true)
                lineNumber += 1
                if lineNumber > last {
                    done = true
                    return
                }
                keeping = next < pending.count && pending[next] == lineNumber
                start = end + 1
            }
        }
        /// The lines, with the last one when the file does not end with a line end.
        func finish() -> [Int: [UInt8]] {
            if !done && keeping && !current.isEmpty {
                if current.last == 0x0D { current.removeLast() }
                out[lineNumber] = current
            }
            return out
        }
        // An uncompressed file is scanned where it lies (mapped), without copying it.
        if OSMCompression.of(path: file) == .none, let mapped = try? Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped) {
            mapped.withUnsafeBytes { consume($0) }
            return finish()
        }
        // The same stream the OSM reader parses, so a gzip or bzip2 file shows its text, not its compressed bytes.
        guard let input = try? OSMInputStream(path: file) else { return [:] }
        defer { input.close() }
        let capacity = 64 * 1024
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { chunk.deallocate() }
        while !done, case .bytes(let n)? = try? input.read(into: chunk, capacity: capacity) {
            consume(UnsafeRawBufferPointer(start: chunk, count: n))
        }
        return finish()
    }
}
