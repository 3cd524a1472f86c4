import FocalCore
import Testing

@testable import FocalRuntime

/// The runtime's ways in hold its ``JSRuntime/confinement``, which the engine's parts and host callbacks assert
/// (FocalCoreTests show that its predicates are false on any other thread).
@Suite("The runtime's thread confinement")
struct ConfinementTests {
    @Test(
        "a call into JavaScript, and a batch's steps, run on the thread inside the runtime; it is free again after",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func waysInHoldTheRuntime() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(2))
        var heldInCallback: [Bool] = []
        let probe = runtime.protect(
            runtime.makeFunction(name: nil) { [unowned runtime] _, _ in
                heldInCallback.append(runtime.isHeldHere)
                return nil
            })
        #expect(!runtime.isHeldHere)
        _ = try runtime.call(probe.object!)
        // Called from JavaScript: a callback inside an entry inside an entry.
        let caller = try #require(runtime.object(try runtime.evaluate("(f => f())")))
        _ = try runtime.call(caller, arguments: [probe.value])
        #expect(heldInCallback == [true, true])
        #expect(!runtime.isHeldHere && runtime.isFreeHere)

        var heldInSteps: [Bool] = []
        runtime.withOneEntry {
            heldInSteps.append(runtime.isHeldHere)
            return heldInSteps.count < 3
        }
        #expect(heldInSteps == [true, true, true])
        #expect(!runtime.isHeldHere)
    }
}

extension JSRuntime {
    /// Whether the calling thread is inside the runtime.
    fileprivate var isHeldHere: Bool { confinement.isHeldByCurrentThread }
    /// Whether the calling thread may enter the runtime.
    fileprivate var isFreeHere: Bool { confinement.isFreeForCurrentThread }
}
