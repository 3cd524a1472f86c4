import FocalCore
import Foundation
import Synchronization
import Testing

/// What another thread answers, read there while the calling thread waits (at most ten seconds).
func onAnotherThread<Answer: Sendable>(_ read: @escaping @Sendable () -> Answer) throws -> Answer {
    let answer = Mutex<Answer?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = read()
        answer.withLock { $0 = value }
        done.signal()
    }
    thread.start()
    try #require(done.wait(timeout: .now() + 10) == .success, "the other thread did not answer within 10 s")
    return try #require(answer.withLock { $0 })
}

/// An object confined to one thread at a time, for the tests to share with another thread.
final class Confined: Sendable {
    let confinement = ThreadConfinement()
    /// Whether the calling thread is inside.
    var isHeld: Bool { confinement.isHeldByCurrentThread }
    /// Whether the calling thread may enter.
    var isFree: Bool { confinement.isFreeForCurrentThread }
}

@Suite("ThreadConfinement")
struct ThreadConfinementTests {
    @Test("the checks are compiled into debug builds, and only there")
    func compiledInDebugBuilds() {
        #expect(ThreadConfinement.isChecking == _isDebugAssertConfiguration())
    }

    @Test(
        "the thread inside holds it; another finds it neither held nor free until the outermost exit",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func anotherThreadIsRefused() throws {
        let object = Confined()
        #expect(object.isFree)
        #expect(!object.isHeld)
        object.confinement.enter()
        object.confinement.enter()  // a callback entering again
        #expect(object.isHeld)
        var seen = try onAnotherThread { (object.isHeld, object.isFree) }
        // The predicates the assertions test are false there: an `enter` there would fail its assertion.
        #expect(seen.0 == false && seen.1 == false)
        object.confinement.exit()
        #expect(object.isHeld)
        seen = try onAnotherThread { (object.isHeld, object.isFree) }
        #expect(seen.0 == false && seen.1 == false)
        object.confinement.exit()
        #expect(!object.isHeld)
        seen = try onAnotherThread { (object.isHeld, object.isFree) }
        #expect(seen.0 == false && seen.1 == true)
    }

    @Test(
        "an object that is free moves to the next thread that enters it",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func movesBetweenUses() throws {
        let object = Confined()
        let inside = try onAnotherThread {
            object.confinement.withEntered { object.isHeld }
        }
        #expect(inside)
        #expect(object.isFree)
        #expect(object.confinement.withEntered { object.isHeld })
    }
}
