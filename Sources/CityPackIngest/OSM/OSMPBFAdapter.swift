import CityPackDiagnostics

/// Feeds an OSM PBF file to the element sink: blocks are inflated and decoded on every core
/// (``PBFDecodePipeline``) and their elements handed over in file order, each with line = blob index and
/// column = element index within the blob. At most a few blocks per core are in flight, so memory stays bounded
/// whatever the file size.
enum OSMPBFAdapter {
    /// Reads the file at `path` (already registered as file `index` of the sink).
    static func read(
        path: String, file index: UInt16, displayPath: String, fileSize: Int64, into sink: inout OSMAssembler
    ) {
        sink.beginFile(index, displayPath: displayPath)
        let options = sink.options
        do throws(PBFError) {
            // Tag keys are judged on the decode threads: elements without a kept key come without tags.
            let profile = sink.profile
            let filter = PBFTagFilter(maxTags: options.maxTagsPerElement, maxValueBytes: options.maxValueBytes) { key in
                TagKeyDecision.decide(key, profile: profile).isKept ? profile.classificationRelevance(ofKey: key) : .never
            }.memoizingKeys()
            let pipeline = try PBFDecodePipeline(path: path, workers: options.pbfWorkers, filter: filter)
            var blobIndex: Int32 = 0
            var nextProgress = options.progressInterval
            defer { pipeline.drain() }
            while let decoded = try pipeline.next() {
                defer { blobIndex += 1 }
                switch decoded {
                case .header(let header, let offset):
                    for feature in header.requiredFeatures
                    where !PBFBlockDecoder.supportedRequiredFeatures.contains(feature) {
                        throw .unsupportedRequiredFeature(feature, blobOffset: offset)
                    }
                case .data(let block): feed(block, line: blobIndex, into: &sink)
                case .other: break
                }
                if let progress = options.progress, pipeline.offset >= nextProgress {
                    nextProgress = pipeline.offset + options.progressInterval
                    progress(pipeline.offset, fileSize)
                }
            }
        } catch {
            report(error, sink: sink)
        }
    }

    /// The elements of one decoded block, in order (columns 1…n).
    static func feed(_ block: PBFPrimitiveBlock, line: Int32, into sink: inout OSMAssembler) {
        if let newest = block.newestTimestamp { sink.timestamp(newest) }
        let count = block.nodeIDs.count
        let (ids, tagged, lats, lons) = (block.nodeIDs, block.nodeTags, block.nodeLatE7, block.nodeLonE7)
        var t = 0
        var i = 0
        while i < count {
            if t < tagged.count && tagged[t].index == i {
                sink.node(id: ids[i], latE7: lats[i], lonE7: lons[i], tags: tagged[t].tags, line: line, column: Int32(i + 1))
                t += 1
                i += 1
                continue
            }
            // A run of untagged nodes up to the next tagged one, taken at once while positions are valid.
            let end = t < tagged.count ? tagged[t].index : count
            i += sink.untaggedNodes(
                ids: ids[i..<end], latE7: lats[i..<end], lonE7: lons[i..<end], line: line, firstColumn: Int32(i + 1))
            if i < end {
                // An invalid position: the full path reports it.
                sink.node(id: ids[i], latE7: lats[i], lonE7: lons[i], tags: [], line: line, column: Int32(i + 1))
                i += 1
            }
        }
        var column = Int32(count)
        var w = 0
        for i in block.wayIDs.indices {
            column += 1
            var tags: [(String, String)] = []
            if w < block.wayTags.count && block.wayTags[w].index == i {
                tags = block.wayTags[w].tags
                w += 1
            }
            sink.way(id: block.wayIDs[i], refs: block.wayRefs[block.refRange(ofWay: i)], tags: tags, line: line, column: column)
        }
        for r in block.relations {
            column += 1
            sink.relation(
                id: r.id, members: r.members.lazy.map { ($0.type.kind, $0.ref) }, tags: r.tags, line: line, column: column)
        }
    }

    /// A PBF decoding error: the rest of the file is not read.
    static func report(_ error: PBFError, sink: OSMAssembler) {
        let (offset, what): (Int64, String) =
            switch error {
            case .io(let e, let o): (o, "read error (errno \(e))")
            case .truncated(let o): (o, "the file ends inside a blob")
            case .blobHeaderTooLarge(let l, let o): (o, "a BlobHeader of \(l) bytes exceeds 64 KiB")
            case .blobTooLarge(let s, let o): (o, "a blob of \(s) bytes exceeds 32 MiB")
            case .missingBlobHeaderField(let f, let o): (o, "the BlobHeader lacks its \(f)")
            case .unsupportedBlobKind(let k, let o): (o, "unsupported blob compression \(k)")
            case .rawSizeMismatch(let d, let o): (o, "the blob does not inflate to its declared raw_size \(d)")
            case .inflateFailed(let m, let o): (o, "zlib: \(m)")
            case .malformed(let e, let o): (o, "malformed protobuf (\(e))")
            case .stringIndexOutOfRange(let i, let c, let o): (o, "string index \(i) beyond the table of \(c)")
            case .inconsistentArrays(let m, let o): (o, "inconsistent arrays: \(m)")
            case .coordinateOverflow(let o): (o, "a coordinate overflows")
            case .invalidMemberType(let t, let o): (o, "relation member type \(t) is not node, way or relation")
            case .unsupportedRequiredFeature(let f, let o): (o, "required feature \(f) is not supported")
            }
        sink.bag.report(
            Rules.osmPBFMalformed, "PBF error in the blob at file offset \(offset): \(what); the rest of the file is not read",
            at: SourceLocation(file: sink.displayPath))
    }
}

extension PBFMemberType {
    /// The member's element kind.
    var kind: OSMElementKind {
        switch self {
        case .node: .node
        case .way: .way
        case .relation: .relation
        }
    }
}
