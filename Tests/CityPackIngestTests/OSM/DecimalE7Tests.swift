import CityPackIngest
import CityPackModel
import Testing

@Suite struct DecimalE7Tests {
    func parse(_ s: String) -> (Int64, Bool)? {
        let bytes = Array(s.utf8)
        return bytes.withUnsafeBufferPointer { b -> (Int64, Bool)? in
            guard let base = b.baseAddress else {
                var zero: UInt8 = 0
                return withUnsafePointer(to: &zero) { p in DecimalE7.parse(p, p).map { ($0.value, $0.excess) } }
            }
            return DecimalE7.parse(base, base + b.count).map { ($0.value, $0.excess) }
        }
    }

    @Test(arguments: [
        ("43.7371175", 437_371_175, false), ("-0.5", -5_000_000, false), ("7", 70_000_000, false),
        ("+1.25", 12_500_000, false), (".5", 5_000_000, false), ("180.0000000", 1_800_000_000, false),
        ("1.00000005", 10_000_001, true), ("-1.00000004", -10_000_000, true), ("1.123456700", 11_234_567, false),
    ] as [(String, Int64, Bool)])
    func valid(_ text: String, _ value: Int64, _ excess: Bool) throws {
        let r = try #require(parse(text))
        #expect(r.0 == value && r.1 == excess)
    }

    @Test(arguments: ["", "-", ".", "NaN", "inf", "-Infinity", "1e5", " 1", "1.2.3", "0x10", "1,5"])
    func invalid(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test func overflowIsFlagged() {
        #expect(parse("12345678901234567890")?.0 == DecimalE7.overflow)
    }
}
