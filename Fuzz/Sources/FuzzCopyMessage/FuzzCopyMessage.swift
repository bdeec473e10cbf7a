import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import FuzzSupport

/// The copy message parser (`CopyMessage.parse`) on any text, with a round-trip property: a message that parses,
/// written back with `{{`/`}}` escapes and `{name}` placeholders, parses to the same segments. The same bytes
/// are also read as a whole copy file (`CopyReader.parse`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCopyMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let message = try? CopyMessage.parse(text) {
        // Braces doubled by scalar: `{` followed by a combining mark is one Character, which a character-level
        // replace (`replacingOccurrences`) leaves single; the first crash this target found was that harness bug.
        var written = ""
        for segment in message.segments {
            switch segment {
            case .literal(let s):
                for scalar in s.unicodeScalars {
                    if scalar == "{" || scalar == "}" { written.unicodeScalars.append(scalar) }
                    written.unicodeScalars.append(scalar)
                }
            case .placeholder(let name):
                written += "{\(name)}"
            }
        }
        precondition(written == message.source, "CopyMessage.source differs from the scalar-level rewrite")
        guard let again = try? CopyMessage.parse(written) else { fatalError("round trip does not parse: \(written)") }
        precondition(again == message, "round trip changed the message")
    }
    _ = CopyReader.parse(text, display: "copy/en.yaml", bag: DiagnosticBag())
    return 0
}

@_cdecl("FuzzCopyMessage_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzCopyMessage)
}
