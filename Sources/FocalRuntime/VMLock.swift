import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The virtual machine's lock and promise-job queue, through three functions JavaScriptCore
/// exports without a public header (`JSC::JSLockHolder`'s constructor and destructor, and
/// `JSC::VM::drainMicrotasks`).
///
/// ``JSRuntime/withOneEntry(_:)`` needs them to run many calls inside one VM entry as if each
/// were an entry of its own: a host function runs with the lock dropped, so it takes the lock
/// again to hold it across the calls (each C API call then takes it recursively), and runs
/// each call's promise jobs right after it, as releasing the lock at the end of an entry does
/// (`drainMicrotasks` without the lock aborts). Found by name at the first use; where the
/// library does not export them, ``shared`` is `nil` and every call is an entry of its own.
struct VMLock {
    private typealias Constructor = @convention(c) (UnsafeMutableRawPointer, JSContextGroupRef) -> Void
    private typealias Destructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias Drain = @convention(c) (JSContextGroupRef) -> Void

    private let lock: Constructor
    private let unlock: Destructor
    private let drain: Drain

    /// The library's functions, or `nil` when one is missing.
    static let shared: VMLock? = {
        let library = dlopen(nil, RTLD_NOW)
        // A context group is its `JSC::VM`.
        guard let lock = dlsym(library, "_ZN3JSC12JSLockHolderC1ERNS_2VME"),
            let unlock = dlsym(library, "_ZN3JSC12JSLockHolderD1Ev"),
            let drain = dlsym(library, "_ZN3JSC2VM15drainMicrotasksEv")
        else { return nil }
        return VMLock(
            lock: unsafeBitCast(lock, to: Constructor.self), unlock: unsafeBitCast(unlock, to: Destructor.self),
            drain: unsafeBitCast(drain, to: Drain.self))
    }()

    /// Runs `body` holding the lock of `group`'s virtual machine.
    func holding<R>(_ group: JSContextGroupRef, _ body: () -> R) -> R {
        // A `JSLockHolder` is one reference to the VM; 64 bytes leave room to spare.
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { holder in
            lock(holder.baseAddress!, group)
            defer { unlock(holder.baseAddress!) }
            return body()
        }
    }

    /// Runs the promise jobs queued in `group`'s virtual machine, and those they queue, until
    /// none is left; the caller holds the lock (``holding(_:_:)``).
    func drainJobs(_ group: JSContextGroupRef) { drain(group) }
}
