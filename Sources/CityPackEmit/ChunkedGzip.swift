import CityPackStorage
import CityPackSupport
import Dispatch
import Foundation

/// Gzip of a pack made of independently deflated chunks, as `pigz --independent` makes it: one ordinary gzip
/// member (any gunzip, zlib, `DecompressionStream` or `GZIPInputStream` reads it), whose deflate stream restarts
/// its dictionary at every chunk boundary (``chunkRanges(count:)``).
///
/// Each chunk's compressed bytes then depend on that chunk's input alone, which gives two things:
/// - the chunks are compressed on every core at once;
/// - a rebuild whose database changed in a few pages (an editorial row, a copy string) recompresses only the
///   chunks holding those pages and takes the others from a ``GzipChunkStore`` (the build cache).
/// The cost is the dictionary lost at each chunk start: on Milan's pack, 0.05 % more bytes than one zlib stream at
/// 512 KiB chunks (0.34 % at 256 KiB, 0.01 % at 1 MiB).
/// The output is deterministic: same input, same level, same bytes, with or without a store.
enum ChunkedGzip {
    /// Input bytes per chunk: 128 SQLite pages of 4 KiB.
    static let chunkBytes = 1 << 19
    /// The chunks of `count` bytes, ``chunkBytes`` each (one empty chunk for no bytes). A smaller first chunk (it
    /// holds the header and the tables' root pages, which every editorial edit changes) saved ~15 ms of a Milan
    /// edit but cost small packs 0.6 % (Monaco's 270 KB database in two chunks), so the chunks are even.
    static func chunkRanges(count: Int) -> [Range<Int>] {
        var ranges = [0..<min(count, chunkBytes)]
        var start = chunkBytes
        while start < count {
            ranges.append(start..<min(count, start + chunkBytes))
            start += chunkBytes
        }
        return ranges
    }

    /// What one compression did.
    struct Figures: Equatable {
        var chunks = 0
        /// Chunks taken from the store.
        var reused = 0
    }

    /// Compresses `source` into `destination` (created or replaced) at `level`, reusing and filling `store`.
    @discardableResult
    static func compress(_ source: String, to destination: String, level: Int32 = 9, store: GzipChunkStore? = nil)
        throws(EmitError) -> Figures
    {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw .io(path: source, message: "cannot read: \(errnoText())")
        }
        let input = data
        let ranges = chunkRanges(count: input.count)
        let count = ranges.count
        var figures = Figures(chunks: count)
        let slots = ChunkSlots(count: count)
        // With a store: keys first (cheap), then the chunks it lacks, on every core.
        var keys: [String] = []
        if let store {
            input.withUnsafeBytes { all in
                for c in 0..<count {
                    let key = "\(FileDigest.sha256(of: UnsafeRawBufferPointer(rebasing: all[ranges[c]])))-\(level)"
                    keys.append(key)
                    if let reused = store.chunk(key) {
                        slots.set(c, .success(reused))
                        figures.reused += 1
                    }
                }
            }
        }
        let missing = (0..<count).filter { !slots.isFilled($0) }
        let reusedChunks = Set((0..<count).filter { slots.isFilled($0) })
        DispatchQueue.concurrentPerform(iterations: missing.count) { m in
            let c = missing[m]
            input.withUnsafeBytes { all in
                let part = UnsafeRawBufferPointer(rebasing: all[ranges[c]])
                do throws(ZlibError) {
                    slots.set(c, .success(try ZlibStream.deflatedChunk(part, level: level)))
                } catch {
                    slots.set(c, .failure(error))
                }
            }
        }
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, level == 9 ? 2 : level == 1 ? 4 : 0, 255]
        for c in 0..<count {
            guard case .success(let bytes)? = slots.get(c) else {
                let code = slots.get(c)?.error?.code ?? -1
                throw .compression(path: destination, message: "deflate failed (zlib \(code))")
            }
            out += bytes
            if let store, !reusedChunks.contains(c) { store.put(keys[c], bytes) }
        }
        // A final empty fixed-Huffman block ends the stream; then CRC-32 and size (mod 2³²), little-endian.
        out += [3, 0]
        let crc = input.withUnsafeBytes { ZlibStream.crc32(of: $0) }
        let size = UInt32(truncatingIfNeeded: input.count)
        for value in [crc, size] { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
        if let store { store.keepOnly(Set(keys)) }
        try OutputFiles.write(Data(out), to: destination)
        return figures
    }
}

/// The compressed chunks, filled from several threads.
private final class ChunkSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[UInt8], ZlibError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: Result<[UInt8], ZlibError>) { lock.withLock { results[i] = value } }
    func get(_ i: Int) -> Result<[UInt8], ZlibError>? { lock.withLock { results[i] } }
    func isFilled(_ i: Int) -> Bool { lock.withLock { results[i] != nil } }
}

extension Result<[UInt8], ZlibError> {
    /// The zlib error of a failure.
    fileprivate var error: ZlibError? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
