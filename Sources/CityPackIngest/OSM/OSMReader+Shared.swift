import CityPackDiagnostics

/// The hooks ``OSMRegionReader`` uses to hand a reader its share of a file read for several regions at once.
extension OSMReader {
    /// The profile the reader classifies with.
    var profile: any POIProfile { sink.pointee.profile }

    /// Runs `body` on the element sink.
    @inline(__always)
    func withSink<R>(_ body: (inout OSMAssembler) -> R) -> R { body(&sink.pointee) }

    /// Registers a file whose elements arrive from a shared read; nil (after reporting why) when the reader's
    /// limits refuse the file, which then sends it nothing.
    func beginSharedFile(displayPath: String, fileSize: Int64) -> UInt16? {
        let index = sink.pointee.addFile(displayPath: displayPath)
        if fileSize > options.maxInputBytes {
            sink.pointee.limitExceeded(
                "file is \(fileSize) bytes, more than the limit of \(options.maxInputBytes); not read",
                at: SourceLocation(file: displayPath))
            return nil
        }
        sink.pointee.beginFile(index, displayPath: displayPath)
        return index
    }

    /// Ends a shared file: counts its bytes and reports the decoding error that stopped it, if any.
    func endSharedFile(fileSize: Int64, failure: PBFError?) {
        bytesRead += fileSize
        if let failure { OSMPBFAdapter.report(failure, sink: sink.pointee) }
    }
}
