import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one check of a type confined to one thread at a time (a JavaScript runtime and the engine built on it): in
/// debug builds, which thread is inside it, so that a use from a second thread while the first is inside fails an
/// assertion instead of racing on state that opts out of Swift's exclusivity checks (`@exclusivity(unchecked)`).
///
/// The owner enters at each way in (``enter(file:line:)`` … ``exit()``; again from inside, as a callback may) and its parts
/// assert ``isHeldByCurrentThread`` where they are touched, as swift-nio's `assertInEventLoop` does. A type that
/// is not `Sendable` may still move from one thread to the next between uses (a task resumed on another thread
/// after an `await`), so the thread that owns it is the one inside it, not the one that made it. In release
/// builds the type is empty and its members are nothing: the checks cost the hot path no instruction. It is public,
/// its members inlinable, because Swift does not inline a `package` member into another module (as `HostClass` says).
/// The table of what opts out, and why, is the FocalEngine article "Unsafe Code".
public struct ThreadConfinement: ~Copyable, Sendable {
    #if DEBUG
    /// The thread inside (``currentThread``), 0 when none is.
    @usableFromInline let occupant = Atomic<UInt>(0)
    /// How many times that thread entered without leaving; only it changes the count.
    @usableFromInline let depth = Atomic<Int>(0)
    #endif

    /// A confinement no thread is inside.
    @inlinable public init() {}

    /// Whether the checks are compiled in: in debug builds.
    public static var isChecking: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// Whether the calling thread is inside (between ``enter(file:line:)`` and ``exit()``); always `true` in release builds.
    @inlinable @inline(__always) public var isHeldByCurrentThread: Bool {
        #if DEBUG
        occupant.load(ordering: .acquiring) == Self.currentThread
        #else
        true
        #endif
    }

    /// Whether the calling thread may enter now: no other thread is inside; always `true` in release builds.
    @inlinable @inline(__always) public var isFreeForCurrentThread: Bool {
        #if DEBUG
        let occupant = occupant.load(ordering: .acquiring)
        return occupant == 0 || occupant == Self.currentThread
        #else
        true
        #endif
    }

    /// Enters on the calling thread; in debug builds, asserts that no other thread is inside.
    /// - Parameters:
    ///   - file: where the assertion says the second thread entered.
    ///   - line: the line of `file`.
    @inlinable @inline(__always) public func enter(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        let thread = Self.currentThread
        if occupant.load(ordering: .acquiring) != thread {
            let (entered, other) = occupant.compareExchange(expected: 0, desired: thread, ordering: .acquiringAndReleasing)
            assert(entered, "a thread-confined object used by thread \(thread) while thread \(other) is inside it", file: file, line: line)
        }
        depth.add(1, ordering: .relaxed)
        #endif
    }

    /// Leaves what the matching ``enter(file:line:)`` entered; the outermost leaves the object free for any thread.
    @inlinable @inline(__always) public func exit() {
        #if DEBUG
        if depth.subtract(1, ordering: .relaxed).newValue == 0 { occupant.store(0, ordering: .releasing) }
        #endif
    }

    /// Runs `body` entered (``enter(file:line:)`` before it, ``exit()`` after it, however it ends).
    /// - Parameters:
    ///   - file: where the assertion says the second thread entered.
    ///   - line: the line of `file`.
    ///   - body: the use of the confined object.
    @inlinable @inline(__always) public func withEntered<Result, Failure: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        enter(file: file, line: line)
        defer { exit() }
        return try body()
    }

    #if DEBUG
    /// The calling thread, as a number that is never 0.
    @usableFromInline static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
    #endif
}
