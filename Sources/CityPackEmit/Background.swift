import Dispatch

/// Work started on another thread that must end before its caller moves on (see ``Background``).
protocol BackgroundTask: AnyObject {
    /// Waits until the work has ended (whatever its outcome).
    func join()
}

/// Runs one part of an emit on a global queue while the calling thread does another; ``value()`` waits for it
/// and returns its result or throws its error. The emitter joins every task before removing its staging folder,
/// also when it fails early.
final class Background<T>: BackgroundTask, @unchecked Sendable {
    private var result: Result<T, EmitError>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws(EmitError) -> T) {
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(EmitError) {
                self.result = .success(try body())
            } catch {
                self.result = .failure(error)
            }
            self.done.signal()
        }
    }

    func join() {
        done.wait()
        done.signal()
    }

    /// The work's result, once it has ended.
    func value() throws(EmitError) -> T {
        join()
        return try result!.get()
    }
}
