import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fault that tests inject into a debug build of a ``Sender`` (`focal send`) through the
/// environment, to check what a kill at a chosen instant leaves behind. A release build reads no
/// such variable.
///
/// `FOCAL_TEST_FAULT=send-kill-after-answer:N`: the process kills itself (SIGKILL) once the
/// server answered its Nth batch with 200, before the queue records the answer: the server
/// applied lines the queue still holds.
final class SenderTestFault: Sendable {
    /// The variable's fault, read once; `nil` without one (or with a fault of another part) and in a release build.
    static let current: SenderTestFault? = {
        #if DEBUG
        let prefix = "send-kill-after-answer:"
        guard let value = getenv("FOCAL_TEST_FAULT").map({ String(cString: $0) }), value.hasPrefix(prefix) else { return nil }
        guard let count = Int(value.dropFirst(prefix.count)), count > 0 else {
            fatalError("FOCAL_TEST_FAULT must be send-kill-after-answer:N (N > 0), not '\(value)'")
        }
        return SenderTestFault(killAt: count)
        #else
        return nil
        #endif
    }()

    private let killAt: Int
    private let answers = Atomic(0)

    private init(killAt: Int) {
        self.killAt = killAt
    }

    /// Called once a batch's 200 answer arrived, before the queue acknowledges it.
    func afterAnswer() {
        if answers.add(1, ordering: .relaxed).newValue == killAt { kill(getpid(), SIGKILL) }
    }
}
