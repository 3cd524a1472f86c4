#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime whose JavaScript is running on this thread, so that a host callback finds its
/// runtime's ``JSRuntime/globalPrivateData`` with a thread-specific load.
///
/// The public API's way, `JSObjectGetPrivate(JSContextGetGlobalObject(context))`, takes and
/// releases the virtual machine's lock, and a callback runs with the lock dropped, so every
/// member a task reads (`node.index`, `node.latestEvent()`…) paid a full lock cycle for it:
/// 3.8 % of the engine thread's time in the 1M-op replay.
///
/// Every entry into JavaScript (``JSRuntime/call(_:argument:)`` and the rest) makes its runtime
/// the running one and restores the one before when it returns, so a runtime entered from
/// another's callback is found too. A callback whose context is not the running runtime's
/// (JavaScript run by an API call outside an entry) falls back to the lock-taking lookup.
@usableFromInline
enum RunningRuntime {
    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the running runtime")
        return key
    }()

    /// The runtime running JavaScript on this thread, if any.
    @inlinable
    static var current: JSRuntime? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<JSRuntime>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `runtime` as the running runtime.
    static func with<R>(_ runtime: JSRuntime, _ body: () -> R) -> R {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(runtime).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return body()
    }
}
