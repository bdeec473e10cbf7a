import Crypto

/// SHA-256 of short strings (a rule code, a file name and an entity key), used for diagnostic fingerprints.
/// The digest itself is swift-crypto's, as everywhere else in CityPack.
package enum SHA256Digest {
    /// Lowercase hex of the digest of a UTF-8 string.
    package static func hex(_ text: String) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(text.utf8)) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return out
    }
}
