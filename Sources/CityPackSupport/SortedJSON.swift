import Foundation

/// The JSON encoding of every file and column CityPack writes: keys sorted, slashes unescaped, so the same value
/// always gives the same bytes. Pretty (two-space indentation) for files people read — manifests, catalogs,
/// reports — and compact for pack columns (`poi.tags`, localised texts).
package enum SortedJSON {
    /// A new encoder with CityPack's settings.
    /// - Parameter pretty: Indented output (files) rather than compact (columns).
    package static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The encoded bytes of a value.
    /// - Parameters:
    ///   - value: What to encode.
    ///   - pretty: Indented output (files) rather than compact (columns).
    /// - Throws: `EncodingError` when the value cannot be encoded (e.g. a non-finite number).
    package static func data(_ value: some Encodable, pretty: Bool) throws -> Data {
        // From the faster CompactJSONEncoder, which writes the same bytes as `encoder(pretty:)`.
        try CompactJSONEncoder(pretty: pretty).encode(value)
    }

    /// The encoded text of a value, or nil when it cannot be encoded.
    /// - Parameters:
    ///   - value: What to encode.
    ///   - pretty: Indented output (files) rather than compact (columns).
    package static func text(_ value: some Encodable, pretty: Bool) -> String? {
        guard let data = try? data(value, pretty: pretty) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
