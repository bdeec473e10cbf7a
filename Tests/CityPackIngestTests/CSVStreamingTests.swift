import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

// @testable: realTablesAgree unpacks the zip feeds with ZipReader, the GTFS reader's internal archive reader.
@testable import CityPackIngest

/// The CSV scanner read in chunks gives exactly what it gives on the whole file (whose behaviour
/// `CSVScannerTests` pins down): same rows, cells, lines, columns, header, counts and diagnostics,
/// wherever the chunks cut the file, including inside quoted multi-line values, CR LF pairs and UTF-8 sequences,
/// and whether a record is held or scanned in place (`recordBufferSize`).
@Suite struct CSVStreamingTests {
    /// Everything a scan tells its caller, in comparable form.
    struct Outcome: Equatable, CustomStringConvertible {
        var rows: [String] = []
        var header: [String]?
        var headerLine = 0
        var rowCount = 0
        var diagnostics: [String] = []
        var counts: [Int] = []

        var description: String {
            (["header \(header ?? []) at \(headerLine), \(rowCount) rows, counts \(counts)"] + rows + diagnostics)
                .joined(separator: "\n")
        }

        /// The first difference, for failure messages.
        func difference(from other: Outcome) -> String {
            let a = description.split(separator: "\n", omittingEmptySubsequences: false)
            let b = other.description.split(separator: "\n", omittingEmptySubsequences: false)
            for k in 0..<max(a.count, b.count) where k >= a.count || k >= b.count || a[k] != b[k] {
                return "line \(k): \(k < a.count ? String(a[k]) : "—") ≠ \(k < b.count ? String(b[k]) : "—")"
            }
            return "no difference"
        }
    }

    static func describe(_ row: CSVRow) -> String {
        var s = "row \(row.line)"
        for c in 0..<row.fields.count {
            let f = row.fields[c]
            s += " | \(row.string(c).map { String(reflecting: $0) } ?? "∅")@\(f.line):\(f.column)\(f.hasEscapedQuotes ? "\"" : "")"
        }
        return s
    }

    static func outcome(_ summary: CSVScanSummary, rows: [String], bag: DiagnosticBag) -> Outcome {
        Outcome(
            rows: rows, header: summary.header?.names, headerLine: summary.headerLine, rowCount: summary.rows,
            diagnostics: bag.diagnostics.map {
                "\($0.severity) \($0.code) \($0.location.map { "\($0.file):\($0.line):\($0.column) \($0.field ?? "")" } ?? "-") \($0.message)"
            },
            counts: [bag.errorCount, bag.warningCount, bag.infoCount])
    }

    /// The whole file in memory.
    static func whole(_ bytes: [UInt8], _ options: CSVOptions) -> Outcome {
        let bag = DiagnosticBag()
        var rows: [String] = []
        let summary = bytes.withUnsafeBytes { raw in
            CSVScanner.scan(raw, file: "t.csv", options: options, bag: bag) { rows.append(describe($0)) }
        }
        return outcome(summary, rows: rows, bag: bag)
    }

    /// The file served in pieces of at most `chunk` bytes (fewer when `short`, as a pipe or zlib may give).
    static func streamed(_ bytes: [UInt8], _ options: CSVOptions, chunk: Int, recordBuffer: Int, short: Bool = false)
        -> Outcome
    {
        var options = options
        options.readChunkSize = chunk
        options.recordBufferSize = recordBuffer
        let bag = DiagnosticBag()
        var rows: [String] = []
        var offset = 0
        var random = SplitMix64(seed: UInt64(bytes.count))
        let summary = CSVScanner.scan(file: "t.csv", options: options, bag: bag, read: { buffer in
            var n = min(buffer.count, bytes.count - offset)
            if short && n > 1 { n = 1 + Int(random.next() % UInt64(n)) }
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }) { rows.append(describe($0)) }
        return outcome(summary, rows: rows, bag: bag)
    }

    /// Whole and streamed with every chunk size up to `maxChunk` and record buffers from one
    /// byte (every record that reaches a chunk's end is scanned in place) to unlimited (records are held).
    static func expectAllAgree(
        _ bytes: [UInt8], _ options: CSVOptions = CSVOptions(), chunks: [Int], recordBuffers: [Int] = [1, 5, 64, .max],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let reference = whole(bytes, options)
        for chunk in chunks {
            for recordBuffer in recordBuffers {
                for short in [false, true] where !short || chunk > 1 {
                    let got = streamed(bytes, options, chunk: chunk, recordBuffer: recordBuffer, short: short)
                    if got != reference {
                        Issue.record(
                            "chunk \(chunk), record buffer \(recordBuffer), short reads \(short): \(got.difference(from: reference))\n\(String(decoding: bytes, as: UTF8.self).debugDescription)\nGOT\n\(got)\nEXPECTED\n\(reference)",
                            sourceLocation: sourceLocation)
                        return
                    }
                }
            }
        }
    }

    @Test func quotedValueWithLineBreaksAcrossEveryCut() {
        let text = "id,name,note\r\n1,\"Gare\r\ncentrale\",\"a \"\"b\"\"\nc\"\r\n2,  x  ,\"q\"  \r\n3,\"\"\"\",\r\n4,\"open\n\n\",end\r\n"
        #expect(Self.whole(Array(text.utf8), CSVOptions()).rows.count == 4)
        Self.expectAllAgree(Array(text.utf8), chunks: Array(1...text.utf8.count + 1))
    }

    @Test func everyDialectCornerAcrossEveryCut() {
        let cases: [[UInt8]] = [
            Array("a,b\n1,2\n3,4".utf8),
            Array("a,b\r\n1,2\r\n3,4\r\n".utf8),
            [0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8),
            [0xEF, 0xBB],
            [0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00],
            Array("a,b\r\n1,2\n3,4\r\n".utf8),
            Array("a,b\r1,2\r3,4".utf8),
            Array("a,b\n1,\"x\ny\n".utf8),
            Array("a,b\n\"1\"x,2\n3,4\"5\n".utf8),
            Array("a,b\n\"1\"   ,2\n\"3\"  x,4\n5,\"6\"  ".utf8),
            Array("a,b\n1,2,\n1,2,3\n1\n\n,\n".utf8),
            Array("a,b\n\u{2028},\u{85}\n\u{0C},x\n".utf8),
            Array("a,b\n".utf8) + [0xC3, 0x28, 0x2C, 0x00, 0x0A] + Array("é,€𝄞\n".utf8) + [0xE2, 0x82],
            Array("\n\n".utf8),
            Array("".utf8),
            Array("a,a,,b\nx,y,z,w\n".utf8),
            Array("a,b\n1,\"\"\n\"\",\"\"\"\"\"\n".utf8),
        ]
        for bytes in cases {
            Self.expectAllAgree(bytes, chunks: Array(1...bytes.count + 1))
        }
    }

    @Test func limitsAcrossEveryCut() {
        var options = CSVOptions(newLineInValueSeverity: .info, maxRows: 3, maxFieldLength: 4)
        options.maxFieldsPerRow = 3
        options.schema = CSVSchema(known: ["a", "b", "c"], required: ["a", "d"])
        let text = "a,b,c\n1,12345,3\n1,2,3,4,5\n\"  1234  \",  x  ,\"a\nb\"\n1,2,3\n4,5,6\n7,8,9\n"
        Self.expectAllAgree(Array(text.utf8), options, chunks: Array(1...text.utf8.count + 1))
        options.trimWhitespace = false
        options.lenientTrailingCells = true
        Self.expectAllAgree(Array(text.utf8), options, chunks: [1, 2, 3, 5, 8, 13])
    }

    /// Random files over the bytes that matter to the grammar, with random limits: cut everywhere.
    @Test func randomFilesAgreeWhenStreamed() {
        var random = SplitMix64(seed: 0x5EED_C5F)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("bc".utf8), Array("12".utf8), [0x2C], [0x2C], [0x2C], [0x22], [0x22], [0x22, 0x22],
            [0x0A], [0x0A], [0x0D], [0x0D, 0x0A], [0x20], [0x20, 0x20], [0x09], [0x00], [0xC3, 0xA9], [0xE2, 0x80, 0xA8],
            [0xFF], [0xE2, 0x82], [0x0C], Array("x y".utf8), Array("\"q,\n\"".utf8),
        ]
        for round in 0..<1_500 {
            var bytes: [UInt8] = round % 7 == 0 ? [0xEF, 0xBB, 0xBF] : []
            let header = ["a,b,c\n", "a,b\r\n", "\"a\",b, c \n", "", "x\n"][Int(random.next() % 5)]
            bytes += Array(header.utf8)
            for _ in 0..<Int(random.next() % 40) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            var options = CSVOptions(
                newLineInValueSeverity: [.error, .info, nil][Int(random.next() % 3)], maxRows: 1 + Int(random.next() % 6),
                maxFieldLength: 1 + Int(random.next() % 6), trimWhitespace: random.next() % 4 != 0)
            options.maxFieldsPerRow = 1 + Int(random.next() % 4)
            options.lenientTrailingCells = random.next() % 2 == 0
            if random.next() % 2 == 0 { options.schema = CSVSchema(known: ["a", "b", "c"], required: ["a"]) }
            let chunks = [1, 2, 3, 1 + Int(random.next() % 16)]
            Self.expectAllAgree(bytes, options, chunks: chunks, recordBuffers: [1, 3, 1 + Int(random.next() % 12), .max])
        }
    }

    /// A record far longer than the record buffer (an unterminated quote near the top of a big file, a line of
    /// NUL bytes, a million commas, a value padded with a megabyte of spaces) is scanned in place: same result.
    @Test func endlessRecordsAreScannedInPlace() {
        var unterminated = "stop_id,stop_name\nS1,\"never closed\n"
        for i in 0..<20_000 { unterminated += "S\(i),Name \(i)\n" }
        let padded = "a,b\n1," + String(repeating: " ", count: 300_000) + "x" + String(repeating: "\t", count: 300_000) + "\n2,y\n"
        let files: [[UInt8]] = [
            Array(unterminated.utf8),
            Array("a,b\n1,".utf8) + [UInt8](repeating: 0, count: 400_000) + Array("\n2,3\n".utf8),
            Array("a,b\n".utf8) + [UInt8](repeating: 0x2C, count: 300_000) + Array("\n2,3\n".utf8),
            Array(padded.utf8),
            Array(("a,b\n1,\"" + String(repeating: "\"\"\n", count: 100_000) + "\"\n").utf8),
        ]
        for bytes in files {
            let reference = Self.whole(bytes, CSVOptions())
            for (chunk, buffer) in [(4_096, 1 << 14), (65_536, 1), (1 << 20, 1 << 20)] {
                let got = Self.streamed(bytes, CSVOptions(), chunk: chunk, recordBuffer: buffer)
                #expect(got == reference, "chunk \(chunk), buffer \(buffer): \(got.difference(from: reference))")
            }
        }
    }

    /// Every table up to 2 MiB of the shared real and broken feeds, in memory and cut into 7-byte (over 64 KiB:
    /// 1 021- and 4 093-byte) chunks with records both held and scanned in place. (`GTFSStreamingTests` reads the big
    /// tables through the whole reader.)
    @Test(.needsSharedData) func realTablesAgree() throws {
        let root = TestPaths.sharedData!.appendingPathComponent("gtfs")
        var tables: [(String, [UInt8])] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "txt" {
                tables.append((url.path, [UInt8](try Data(contentsOf: url))))
            } else if url.pathExtension == "zip", let archive = try? ZipReader(path: url.path, maxEntries: 1_000) {
                for entry in archive.entries where entry.isFile && entry.path.hasSuffix(".txt") {
                    var bytes: [UInt8] = []
                    guard (try? archive.forEachChunk(entry, maxBytes: 1 << 30, maxRatio: 1_000, { bytes += $0 })) != nil else { continue }
                    tables.append(("\(url.path)/\(entry.path)", bytes))
                }
            }
        }
        #expect(tables.count > 100)
        var options = CSVOptions()
        options.schema = CSVSchema(known: ["stop_id", "trip_id", "route_id"], required: [])
        for (name, bytes) in tables where bytes.count <= 2 << 20 {
            let reference = Self.whole(bytes, options)
            // 7-byte chunks on the small tables, 1 021 (and 4 093) on the rest: every kind of cut occurs in
            // either, and a debug build scans the large ones byte-chunk by byte-chunk too slowly to be worth it.
            let small = bytes.count <= 1 << 16
            for (chunk, buffer) in small ? [(7, 16), (7, Int.max)] : [(1_021, 64), (4_093, Int.max)] {
                let got = Self.streamed(bytes, options, chunk: chunk, recordBuffer: buffer)
                #expect(got == reference, "\(name), chunk \(chunk), buffer \(buffer): \(got.difference(from: reference))")
            }
        }
    }
}
