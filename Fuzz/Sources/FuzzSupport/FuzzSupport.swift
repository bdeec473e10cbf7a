import Foundation

/// libFuzzer's driver entry point (from the `-sanitize=fuzzer` runtime).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

/// Runs libFuzzer with `callback`. SwiftPM renames an executable target's entry point to `<Target>_main`
/// and links `main` to it, so libFuzzer's own `main` is never used: each target defines `<Target>_main`
/// with `@_cdecl` and calls this.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32 {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, callback)
}

/// A scratch directory for targets whose entry point reads files (one per process, reused per input).
public let scratch: URL = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let url = URL(fileURLWithPath: base).appendingPathComponent("citypack-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// Writes the input to `name` in the scratch directory and returns the path.
public func writeScratch(_ name: String, _ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    let path = scratch.appendingPathComponent(name).path
    FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    return path
}

/// The repository root (Fuzz/Sources/FuzzSupport/ → ../../..).
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
