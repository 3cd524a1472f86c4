import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What host callbacks need of the runtime whose JavaScript is running on this thread: its
/// context and its host (``JSRuntime/setHost(_:)``), found with a thread-specific load.
///
/// The public API's way, `JSObjectGetPrivate(JSContextGetGlobalObject(context))`, takes and
/// releases the virtual machine's lock, and a callback runs with the lock dropped, so every
/// member a task reads (`node.index`, `node.latestEvent()`…) paid a full lock cycle for it:
/// 3.8 % of the engine thread's time in the 1M-op replay.
///
/// Every entry into JavaScript (``JSRuntime/call(_:argument:)`` and the rest) makes its runtime
/// the running one and restores the one before when it returns, so a runtime entered from
/// another's callback is found too. A callback whose context is not the running runtime's
/// (JavaScript run by an API call outside an entry) falls back to the lock-taking lookup. The
/// thread holds a pointer to the runtime's ``Entry``, not the runtime, so reading it costs no
/// reference counting.
@usableFromInline
enum RunningRuntime {
    /// A runtime's context and host, allocated with the runtime and freed with it.
    @usableFromInline
    struct Entry {
        @usableFromInline let context: JSGlobalContextRef
        /// The host's pointer, which is also the global object's private data.
        @usableFromInline var host: UnsafeMutableRawPointer?
        /// Whether ``JSRuntime/lockDown(alsoFreezing:)`` froze the global object.
        var isLockedDown = false
    }

    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the running runtime")
        return key
    }()

    /// The entry of the runtime running JavaScript on this thread, if any.
    @inlinable
    static var current: UnsafeMutablePointer<Entry>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: Entry.self)
    }

    /// Runs `body` with the runtime of `entry` as the running runtime.
    static func with<R>(_ entry: UnsafeMutablePointer<Entry>, _ body: () -> R) -> R {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, entry)
        defer { pthread_setspecific(key, previous) }
        return body()
    }
}
