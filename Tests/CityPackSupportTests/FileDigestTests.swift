import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

@Suite struct FileDigestTests {
    /// FIPS 180-4 test vectors, and a cross-check against sha256sum for a longer, multi-block input.
    @Test func sha256Vectors() throws {
        #expect(FileDigest.sha256(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileDigest.sha256(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            FileDigest.sha256(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long = String(repeating: "citypack-ünïcode-", count: 97)
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: try OutsideTools.sha256sum.require())
        let input = Pipe(), output = Pipe()
        tool.standardInput = input
        tool.standardOutput = output
        try tool.run()
        input.fileHandleForWriting.write(Data(long.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tool.waitUntilExit()
        #expect(text.hasPrefix(FileDigest.sha256(of: Array(long.utf8))))
    }

    @Test func fileDigestMatchesTheBytesInMemory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("citypack-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Larger than one read chunk, so the streaming path is exercised.
        let bytes = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = dir.appendingPathComponent("blob")
        try bytes.write(to: file)
        let digest = try FileDigest(path: file.path)
        #expect(digest == FileDigest(bytes: bytes.count, sha256: FileDigest.sha256(of: bytes)))
        #expect(FileDigest.hex([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        let missing = dir.appendingPathComponent("missing").path
        #expect { try FileDigest(path: missing) } throws: { error in
            let failure = error as? FileDigest.ReadError
            return failure?.path == missing && failure?.code == ENOENT && failure?.opening == true
        }
    }
}
