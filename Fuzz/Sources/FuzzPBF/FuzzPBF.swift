import FuzzOSMReading
import FuzzSupport

/// A valid OSMHeader blob (zlib-stored HeaderBlock with OsmSchema-V0.6 and DenseNodes), put in front of inputs
/// that do not start with one, so every input takes the PBF path rather than the XML one.
let headerBlob: [UInt8] = {
    var block: [UInt8] = []
    for feature in ["OsmSchema-V0.6", "DenseNodes"] {
        block += [0x22, UInt8(feature.utf8.count)] + Array(feature.utf8)
    }
    // Blob { raw (field 1) = block }, BlobHeader { type = "OSMHeader", datasize }.
    let blob: [UInt8] = [0x0A, UInt8(block.count)] + block
    let header: [UInt8] = [0x0A, 9] + Array("OSMHeader".utf8) + [0x18, UInt8(blob.count)]
    return [0, 0, 0, UInt8(header.count)] + header + blob
}()

/// The OSM PBF reader, end to end (blob framing, inflate, block decoding on worker threads, the shared element
/// state, multipolygon assembly in finish), with small limits. Inputs that do not start with a BlobHeader of type
/// OSMHeader get one in front.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let startsWithHeader = size >= 15 && bytes[4] == 0x0A && bytes[5] == 9 && Array(bytes[6..<15]) == Array("OSMHeader".utf8)
    if !startsWithHeader { bytes = headerBlob + bytes }
    let path = bytes.withUnsafeBufferPointer { writeScratch("input.osm.pbf", $0.baseAddress!, $0.count) }
    readAndCheck(path: path, displayPath: "fuzz.osm.pbf", assembleEveryMultipolygon: true)
    return 0
}

@_cdecl("FuzzPBF_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    _ = profile
    return runFuzzer(argc, argv, fuzzPBF)
}
