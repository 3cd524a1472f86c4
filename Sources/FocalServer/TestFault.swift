import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fault that tests inject into a debug build of `focal serve` through the environment,
/// to check what a crash leaves behind. A release build reads no such variable.
///
/// `FOCAL_TEST_FAULT=kill-before-outbox:N`: the process kills itself (SIGKILL) once its Nth
/// applied batch is journaled and applied, before its results reach the outbox.
/// Under the fault a batch is never journaled with its results in one call (see
/// `SessionServices.journalingPipeline`): there would be no moment between the two to kill in.
final class TestFault: Sendable {
    /// The variable's fault, read once; `nil` without one and in a release build.
    static let current: TestFault? = {
        #if DEBUG
        guard let value = getenv("FOCAL_TEST_FAULT").map({ String(cString: $0) }) else { return nil }
        let prefix = "kill-before-outbox:"
        guard value.hasPrefix(prefix), let count = Int(value.dropFirst(prefix.count)), count > 0 else {
            fatalError("FOCAL_TEST_FAULT must be kill-before-outbox:N (N > 0), not '\(value)'")
        }
        return TestFault(killAt: count)
        #else
        return nil
        #endif
    }()

    private let killAt: Int
    private let batches = Atomic(0)

    private init(killAt: Int) {
        self.killAt = killAt
    }

    /// Called between a batch's journal and its outbox transaction.
    func beforeOutbox() {
        if batches.add(1, ordering: .relaxed).newValue == killAt { kill(getpid(), SIGKILL) }
    }
}
