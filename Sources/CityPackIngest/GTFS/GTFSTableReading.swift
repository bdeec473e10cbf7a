import CityPackDiagnostics
import CityPackModel

/// How the reader turns one feed file into rows: streamed from the source into the parser. A zip entry is only
/// known to be sound once inflated to its end (limits, CRC-32), so while it streams the parser reports to a
/// holding bag, and the feed and the parser are kept as they were before the table: when the entry fails, they
/// are put back and only the archive's diagnostic is reported, exactly as if the entry had been checked before
/// any of it was parsed. When an entry has too many findings to hold, it is checked whole first (inflated once
/// without parsing) and then read again reporting directly. A folder's file cannot fail that way and is read
/// once, reporting directly.
struct GTFSTableReading {
    let bag: DiagnosticBag
    let options: GTFSReadOptions
    /// Most findings held for one zip entry before falling back to check-then-read (about 5 MB of them).
    let holdingLimit = 20_000

    private struct HoldingFull: Error {}

    init(bag: DiagnosticBag, options: GTFSReadOptions) {
        self.bag = bag
        self.options = options
    }

    /// Reads `name` into `feed` through `parse`.
    /// - Parameter countRows: report row progress (when the options ask for it).
    func read(
        _ name: String, file: String, source: inout GTFSSource, feed: inout GTFSFeed, parser: inout GTFSTableParser,
        countRows: Bool, parse: (inout GTFSTableParser, inout GTFSFeed, GTFSTableInput) throws -> Void
    ) {
        guard let stream = source.open(name, bag: bag) else { return }
        let savedFeed = feed
        let savedParser = parser
        let holding = stream.canFailLate ? DiagnosticBag(maxPerCode: .max) : nil
        do {
            try run(stream, name: name, file: file, source: &source, feed: &feed, parser: &parser, holding: holding,
                countRows: countRows, parse: parse)
            source.close(stream, succeeded: true)
            if let holding { for d in holding.diagnostics { bag.report(d) } }
            return
        } catch is HoldingFull {
            feed = savedFeed
            parser = savedParser
            source.close(stream, succeeded: false)
        } catch {
            feed = savedFeed
            parser = savedParser
            stream.report(error, bag: bag)
            source.close(stream, succeeded: false)
            return
        }
        // Too many findings to hold: check the entry whole, then read it again reporting as it goes.
        guard let check = source.open(name, bag: bag) else { return }
        do {
            try check.drain(chunkSize: options.readChunkSize)
        } catch {
            check.report(error, bag: bag)
            return
        }
        guard let again = source.open(name, bag: bag) else { return }
        do {
            try run(again, name: name, file: file, source: &source, feed: &feed, parser: &parser, holding: nil,
                countRows: countRows, parse: parse)
            source.close(again, succeeded: true)
        } catch {
            // Only if the archive changed under us since it was checked.
            feed = savedFeed
            parser = savedParser
            again.report(error, bag: bag)
            source.close(again, succeeded: false)
        }
    }

    private func run(
        _ stream: GTFSFileStream, name: String, file: String, source: inout GTFSSource, feed: inout GTFSFeed,
        parser: inout GTFSTableParser, holding: DiagnosticBag?, countRows: Bool,
        parse: (inout GTFSTableParser, inout GTFSFeed, GTFSTableInput) throws -> Void
    ) throws {
        var progress: GTFSRowProgress?
        var estimate = false
        if countRows, let report = options.progress {
            if stream.canFailLate {
                // An entry cannot be counted without inflating it twice: estimate from the bytes seen so far.
                progress = GTFSRowProgress(file: file, total: 0, report: report)
                estimate = true
            } else {
                progress = GTFSRowProgress(file: file, total: Self.lineCount(name, source: &source), report: report)
            }
        }
        let limit = holdingLimit
        var seen = 0
        var lineFeeds: Int64 = 0
        let size = stream.sizeHint
        let input = GTFSTableInput(file: file, sizeHint: size) { buffer in
            let n = try stream.read(into: buffer)
            if estimate, let progress, n > 0 {
                seen += n
                lineFeeds += GTFSRowProgress.lineFeeds(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                progress.total = max(Int64(Double(lineFeeds) * Double(max(size, seen)) / Double(seen)) - 1, 0)
            }
            if let holding, holding.errorCount + holding.warningCount + holding.infoCount > limit { throw HoldingFull() }
            return n
        }
        parser.bag = holding ?? bag
        parser.rowProgress = progress
        defer {
            parser.bag = bag
            parser.rowProgress = nil
        }
        try parse(&parser, &feed, input)
        // The scanner reads to the end; make sure an entry's CRC-32 has been checked all the same.
        try stream.drain(chunkSize: 1 << 16)
        progress?.finish()
    }

    /// Rows of a folder file, from its line count (lines, plus one for a last line without a line feed, minus
    /// the header), read in pieces.
    private static func lineCount(_ name: String, source: inout GTFSSource) -> Int64 {
        guard let stream = source.open(name, bag: DiagnosticBag()) else { return 0 }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var count: Int64 = 0
        var last: UInt8 = 0x0A
        var any = false
        while let n = try? stream.read(into: buffer), n > 0 {
            count += GTFSRowProgress.lineFeeds(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            last = buffer[n - 1]
            any = true
        }
        if any && last != 0x0A { count += 1 }
        return max(count - 1, 0)
    }
}
