import CCityPackZlib
import CityPackIngest
import Foundation

/// Reads chosen lines of a source file: plain files with `fread`, `.gz` files through zlib's `gzread`, stopping
/// after the last line asked for. Lines longer than ``maxLineBytes`` are cut. Files that do not exist (entries
/// inside a GTFS zip, a deleted file) or are folders give no lines.
public enum SourceLines {
    /// Longest line kept, in bytes.
    public static let maxLineBytes = 64 * 1024

    /// The bytes of each line of `file` listed in `wanted` (1-based, without the line end) that exists.
    public static func read(file: String, lines wanted: Set<Int>) -> [Int: [UInt8]] {
        guard let last = wanted.max(), last > 0 else { return [:] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { return [:] }
        // OSM PBF has no lines: its locations are (blob, element) numbers, so there is no text to show.
        guard !OSMReader.isPBF(path: file) else { return [:] }
        var out: [Int: [UInt8]] = [:]
        var current: [UInt8] = []
        var lineNumber = 1
        var keeping = wanted.contains(1)
        var done = false
        func consume(_ buffer: UnsafeBufferPointer<UInt8>) {
            for byte in buffer {
                if byte == 0x0A {
                    if keeping {
                        if current.last == 0x0D { current.removeLast() }
                        out[lineNumber] = current
                    }
                    current.removeAll(keepingCapacity: true)
                    lineNumber += 1
                    if lineNumber > last { done = true; return }
                    keeping = wanted.contains(lineNumber)
                } else if keeping && current.count < maxLineBytes {
                    current.append(byte)
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        if file.hasSuffix(".gz") {
            guard let gz = gzopen(file, "rb") else { return [:] }
            defer { gzclose(gz) }
            while !done {
                let n = chunk.withUnsafeMutableBytes { gzread(gz, $0.baseAddress, UInt32($0.count)) }
                if n <= 0 { break }
                chunk.withUnsafeBufferPointer { consume(UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
            }
        } else {
            guard let fp = fopen(file, "rb") else { return [:] }
            defer { fclose(fp) }
            while !done {
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, fp) }
                if n == 0 { break }
                chunk.withUnsafeBufferPointer { consume(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        if !done && keeping && !current.isEmpty {
            if current.last == 0x0D { current.removeLast() }
            out[lineNumber] = current
        }
        return out
    }
}
