#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock one ``OpQueue`` holds on its directory for its life (`flock` on `queue.lock`),
/// so two senders never send the same queue. The kernel releases it when the process ends, even
/// by SIGKILL, so a killed sender never leaves its queue locked.
final class QueueLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of `directory`, failing at once when another queue holds it.
    init(directory: String) throws {
        let path = directory + "/queue.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OpQueueError.lock(directory, String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw busy ? OpQueueError.held(directory) : OpQueueError.lock(directory, reason)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
