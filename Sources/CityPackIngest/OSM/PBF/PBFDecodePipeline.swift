import CityPackSupport
import Dispatch
import Foundation

/// Inflates and decodes the blocks of a PBF file on several threads and returns them in file order.
///
/// The calling thread reads the framing (cheap, sequential `pread`s) and keeps up to `2 × workers` blobs in
/// flight; worker threads inflate and decode them. ``next()`` waits for the oldest one, so results and errors
/// come in file order, and an error stops reading at the blob where it occurs. Call ``drain()`` before
/// dropping the pipeline early so no worker outlives it. With one worker, blobs are decoded on the calling thread
/// as they are read (no pipeline at all), which is the single-core baseline.
package final class PBFDecodePipeline {
    /// One decoded blob.
    package enum Decoded: Sendable {
        case header(PBFHeaderBlock, offset: Int64)
        case data(PBFPrimitiveBlock)
        /// A blob type readers skip.
        case other
    }

    /// The result slot of one blob, filled by a worker and read by the caller after `done` is signalled.
    private final class Slot: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<Decoded, PBFError> = .success(.other)
    }

    private let reader: PBFBlobReader
    private let filter: PBFTagFilter?
    /// Work done on each decoded block on its decode thread, before it is handed over.
    private let transform: (@Sendable (inout PBFPrimitiveBlock) -> Void)?
    /// Which blobs (by index in the file) are inflated and decoded; the others come as `.other` unread.
    private let keep: ((Int) -> Bool)?
    private var blobIndex = 0
    private let window: Int
    private let inline: Bool
    private let queue: DispatchQueue
    private let workers: DispatchSemaphore
    private var inFlight: [Slot] = []
    private var inFlightHead = 0
    private var readError: PBFError?
    private var endOfFile = false

    /// File offset up to which blobs have been read (for progress).
    package var offset: Int64 { reader.offset }

    /// The file's digest from the bytes read, when the pipeline was made `hashing` and read every blob's data.
    package func digest(fileSize: Int64) -> FileDigest? { reader.digest?.digest(fileSize: fileSize) }

    /// Opens `path`; `workers` threads decode at once, handing over tags as `filter` says (all without one).
    /// `keep`, when given, says which blobs (by index) to decode; the data of the others is not even read.
    /// `transform`, when given, runs on each decoded data block on its decode thread.
    package init(
        path: String, workers: Int, filter: PBFTagFilter? = nil, keep: ((Int) -> Bool)? = nil,
        transform: (@Sendable (inout PBFPrimitiveBlock) -> Void)? = nil, hashing: Bool = false
    ) throws(PBFError) {
        reader = try PBFBlobReader(path: path)
        if hashing { reader.digest = StreamingFileDigest() }
        self.filter = filter
        self.transform = transform
        self.keep = keep
        let n = max(1, workers)
        inline = n == 1
        window = inline ? 1 : 2 * n
        queue = DispatchQueue(label: "citypack.pbf.decode", attributes: .concurrent)
        self.workers = DispatchSemaphore(value: n)
    }

    /// Decodes one blob (runs on a worker thread).
    private static func decode(
        _ raw: PBFRawBlob, filter: PBFTagFilter?, transform: (@Sendable (inout PBFPrimitiveBlock) -> Void)? = nil
    ) -> Result<Decoded, PBFError> {
        do throws(PBFError) {
            let data = try PBFBlobReader.decodeBlob(raw.bytes, blobOffset: raw.offset)
            switch raw.type {
            case "OSMHeader": return .success(.header(try PBFBlockDecoder.decodeHeader(data, blobOffset: raw.offset), offset: raw.offset))
            case "OSMData":
                var block = try PBFBlockDecoder.decodePrimitiveBlock(data, blobOffset: raw.offset, filter: filter)
                transform?(&block)
                return .success(.data(block))
            default: return .success(.other)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Reads framing and starts decodes until the window is full or the file ends.
    private func fill() {
        while inFlight.count - inFlightHead < window && !endOfFile && readError == nil {
            do throws(PBFError) {
                let wanted = keep?(blobIndex) ?? true
                blobIndex += 1
                guard let raw = try reader.nextRaw(readingData: wanted) else {
                    endOfFile = true
                    return
                }
                let slot = Slot()
                inFlight.append(slot)
                if !wanted {
                    slot.done.signal()
                    continue
                }
                if inline {
                    slot.result = Self.decode(raw, filter: filter, transform: transform)
                    slot.done.signal()
                    continue
                }
                let (workers, filter, transform) = (self.workers, self.filter, self.transform)
                queue.async {
                    workers.wait()
                    slot.result = Self.decode(raw, filter: filter, transform: transform)
                    workers.signal()
                    slot.done.signal()
                }
            } catch {
                readError = error
            }
        }
    }

    /// The next blob in file order, `nil` at the end; throws the first error in file order.
    package func next() throws(PBFError) -> Decoded? {
        fill()
        guard inFlightHead < inFlight.count else {
            if let readError {
                self.readError = nil
                throw readError
            }
            return nil
        }
        let slot = inFlight[inFlightHead]
        slot.done.wait()
        // The caller owns the block now: the slot lets go of it at once (consumed slots are dropped in batches,
        // and each would otherwise hold a whole decoded block until then).
        let result = slot.result
        slot.result = .success(.other)
        inFlightHead += 1
        if inFlightHead > 64 {
            inFlight.removeFirst(inFlightHead)
            inFlightHead = 0
        }
        return try result.get()
    }

    /// Waits for every decode still running.
    package func drain() {
        for slot in inFlight[inFlightHead...] { slot.done.wait() }
        inFlight.removeAll()
        inFlightHead = 0
    }
}
