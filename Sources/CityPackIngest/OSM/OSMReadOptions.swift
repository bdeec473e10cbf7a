import Foundation
import CityPackModel

/// Bounds and hooks for ``OSMReader``. Every bound violation is an `osm.limit_exceeded` diagnostic, never a crash.
public struct OSMReadOptions: Sendable {
    /// Largest input accepted, in bytes: checked against the file size and against decompressed bytes of
    /// `.osm.gz` files (gzip bombs). Default 4 GiB.
    public var maxInputBytes: Int64
    /// Most `<tag>` children per element; further tags are ignored. Default 5 000.
    public var maxTagsPerElement: Int
    /// Longest tag key or value in bytes; longer tags are ignored. Default 65 536 (OSM itself allows 255 characters).
    public var maxValueBytes: Int
    /// Most `<nd>` children of a way or `<member>` children of a relation; further ones are ignored. Default 100 000
    /// (the OSM API allows 2 000 and 32 000).
    public var maxRefsPerElement: Int = 100_000
    /// Deepest element nesting; a deeper element stops the file. Default 32 (OSM XML needs 4).
    public var maxDepth: Int = 32
    /// Assemble every `type=multipolygon` relation, not only POIs, and return each outcome in
    /// ``OSMIngestResult/multipolygons`` (for conformance figures). Default false.
    public var assembleEveryMultipolygon = false
    /// Threads that inflate and decode PBF blocks while the reading thread applies them in order. Default: one
    /// per active core; 1 decodes on the reading thread itself (the benchmark's one-core figure).
    public var pbfWorkers = ProcessInfo.processInfo.activeProcessorCount
    /// Called with (bytes done, bytes total) of the file on disk (compressed bytes for `.osm.gz`), at most once
    /// per ``progressInterval`` bytes and once at the end of each file. Called on the reading thread.
    public var progress: (@Sendable (_ bytesDone: Int64, _ bytesTotal: Int64) -> Void)?
    /// Minimum number of input bytes between two progress calls. Default 8 MiB.
    public var progressInterval: Int64

    public init(
        maxInputBytes: Int64 = 4 << 30, maxTagsPerElement: Int = 5_000, maxValueBytes: Int = 65_536,
        progressInterval: Int64 = 8 << 20, progress: (@Sendable (_ bytesDone: Int64, _ bytesTotal: Int64) -> Void)? = nil
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxTagsPerElement = maxTagsPerElement
        self.maxValueBytes = maxValueBytes
        self.progressInterval = progressInterval
        self.progress = progress
    }
}

extension OSMReadOptions {
    /// The bounds of a city file's `limits:` section.
    public init(limits: InputLimits) {
        self.init(maxInputBytes: limits.fileSize, maxTagsPerElement: limits.tagsPerElement, maxValueBytes: limits.valueSize)
        maxRefsPerElement = limits.refsPerElement
        maxDepth = limits.depth
    }
}

/// Failures ``OSMReader`` cannot turn into diagnostics: the input cannot be opened or read at all.
public enum OSMReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be opened.
    case cannotOpen(path: String, reason: String)
    /// Reading failed part-way with an operating-system error.
    case readFailed(path: String, reason: String)
    /// libxml2 could not create a parser (out of memory).
    case parserUnavailable(path: String)
    /// ``OSMReader/read(file:displayPath:)`` was called after ``OSMReader/finish()``.
    case alreadyFinished

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
        case .parserUnavailable(let path): "cannot create an XML parser for \(path)"
        case .alreadyFinished: "the OSM reader was already finished"
        }
    }
}
