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
/// applied lines the queue still holds. `FOCAL_TEST_FAULT=send-kill-after-end:N`: the same, once
/// the server answered the Nth batch whose last line is an `end`.
final class SenderTestFault: Sendable {
    /// The variable's fault, read once; `nil` without one (or with a fault of another part) and in a release build.
    static let current: SenderTestFault? = {
        #if DEBUG
        guard let value = getenv("FOCAL_TEST_FAULT").map({ String(cString: $0) }), value.hasPrefix("send-kill-after-") else { return nil }
        let parts = value.split(separator: ":")
        guard parts.count == 2, ["send-kill-after-answer", "send-kill-after-end"].contains(parts[0]), let count = Int(parts[1]), count > 0
        else {
            fatalError("FOCAL_TEST_FAULT must be send-kill-after-answer:N or send-kill-after-end:N (N > 0), not '\(value)'")
        }
        return SenderTestFault(killAt: count, endsOnly: parts[0] == "send-kill-after-end")
        #else
        return nil
        #endif
    }()

    private let killAt: Int
    /// Whether only answers to batches ending with an `end` count.
    private let endsOnly: Bool
    private let answers = Atomic(0)

    private init(killAt: Int, endsOnly: Bool) {
        self.killAt = killAt
        self.endsOnly = endsOnly
    }

    /// Called once a batch's 200 answer arrived, before the queue acknowledges it; `ending`: whether the batch's last line is an `end`.
    func afterAnswer(ending: Bool) {
        guard ending || !endsOnly else { return }
        if answers.add(1, ordering: .relaxed).newValue == killAt { kill(getpid(), SIGKILL) }
    }
}
