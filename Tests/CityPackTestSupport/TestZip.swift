import CCityPackZlib
import CityPackStorage
import Foundation

/// Writes zip archives byte by byte for hostile-input tests: entry names are not sanitised, declared sizes
/// can lie, and big entries are deflated from a generator so they never sit in memory whole.
public enum TestZip {
    public struct Entry {
        public var name: String
        /// Produces the entry's bytes in chunks; called until it returns nil.
        public var chunks: () -> [UInt8]?
        public var deflate: Bool
        /// Uncompressed size written into the headers instead of the real one.
        public var declaredSize: UInt32?

        public init(_ name: String, _ bytes: [UInt8], deflate: Bool = true, declaredSize: UInt32? = nil) {
            var done = false
            self.init(name, deflate: deflate, declaredSize: declaredSize) {
                defer { done = true }
                return done ? nil : bytes
            }
        }

        public init(_ name: String, _ text: String, deflate: Bool = true) {
            self.init(name, Array(text.utf8), deflate: deflate)
        }

        public init(_ name: String, deflate: Bool = true, declaredSize: UInt32? = nil, chunks: @escaping () -> [UInt8]?) {
            self.name = name
            self.chunks = chunks
            self.deflate = deflate
            self.declaredSize = declaredSize
        }

        /// `count` zero bytes, produced 1 MiB at a time.
        public static func zeros(_ name: String, count: Int, declaredSize: UInt32? = nil) -> Entry {
            var left = count
            return Entry(name, declaredSize: declaredSize) {
                guard left > 0 else { return nil }
                let n = min(left, 1 << 20)
                left -= n
                return [UInt8](repeating: 0, count: n)
            }
        }
    }

    /// The archive's bytes.
    public static func make(_ entries: [Entry]) -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            var crc: UInt = crc32(0, nil, 0)
            var size = 0
            var body = Data()
            if entry.deflate {
                // Level 9 with zlib's largest memory level: the densest bombs.
                guard let stream = try? ZlibStream(deflating: .raw, level: 9, memLevel: 9) else {
                    preconditionFailure("zlib cannot start")
                }
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                func pump(_ input: [UInt8], finish: Bool) {
                    input.withUnsafeBytes { inp in
                        stream.setInput(inp.baseAddress, count: inp.count)
                        var produced = 0
                        repeat {
                            buffer.withUnsafeMutableBytes { b in
                                produced = stream.run(into: b, finish: finish).produced
                                body.append(contentsOf: b[0..<produced])
                            }
                        } while produced == buffer.count
                    }
                }
                while let chunk = entry.chunks() {
                    crc = chunk.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
                    size += chunk.count
                    pump(chunk, finish: false)
                }
                pump([], finish: true)
            } else {
                while let chunk = entry.chunks() {
                    crc = chunk.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
                    size += chunk.count
                    body.append(contentsOf: chunk)
                }
            }
            let name = Array(entry.name.utf8)
            let declared = entry.declaredSize ?? UInt32(truncatingIfNeeded: size)
            let offset = UInt32(out.count)
            func header(_ signature: UInt32, central: Bool) -> Data {
                var h = Data()
                func u16(_ v: Int) { h.append(contentsOf: [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]) }
                func u32(_ v: UInt32) { for i in 0..<4 { h.append(UInt8((v >> (8 * i)) & 0xFF)) } }
                u32(signature)
                if central { u16(20) }  // version made by
                u16(20)  // version needed
                u16(0)  // flags
                u16(entry.deflate ? 8 : 0)
                u16(0); u16(0x21)  // time, date (1980-01-01)
                u32(UInt32(truncatingIfNeeded: crc))
                u32(UInt32(body.count))
                u32(declared)
                u16(name.count)
                u16(0)  // extra
                if central {
                    u16(0); u16(0); u16(0)  // comment, disk, internal attributes
                    u32(0o100644 << 16)  // external attributes: regular file
                    u32(offset)
                }
                h.append(contentsOf: name)
                return h
            }
            out.append(header(0x0403_4B50, central: false))
            out.append(body)
            central.append(header(0x0201_4B50, central: true))
        }
        let centralOffset = UInt32(out.count)
        out.append(central)
        var end = Data()
        func u16(_ v: Int) { end.append(contentsOf: [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]) }
        func u32(_ v: UInt32) { for i in 0..<4 { end.append(UInt8((v >> (8 * i)) & 0xFF)) } }
        u32(0x0605_4B50)
        u16(0); u16(0)
        u16(entries.count); u16(entries.count)
        u32(UInt32(central.count))
        u32(centralOffset)
        u16(0)
        out.append(end)
        return out
    }
}
