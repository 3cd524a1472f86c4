#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread nobody waits for: the op-log reader may be blocked reading standard input when
/// the command ends.
package enum DetachedThread {
    /// Runs `body` on a new thread; returns the `errno` of `pthread_create` when no thread could
    /// be started (`body` then never runs), `nil` otherwise.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Int32? {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return status
        }
        pthread_detach(thread)
        return nil
    }
}
