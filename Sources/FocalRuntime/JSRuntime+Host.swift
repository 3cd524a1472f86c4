import CJavaScriptCore

extension JSRuntime {
    /// Makes `host` the object that the members of host classes find with ``HostCall/host(as:)``:
    /// the state they read (the engine's node binding), since their C functions carry no context.
    /// `nil` removes it.
    ///
    /// The runtime does not retain its host: a host usually owns its runtime, and retaining it back
    /// would keep both for good. Its owner keeps it alive for as long as the runtime may run
    /// JavaScript that reads a host member. Only a runtime made with ``HostClass/global``'s class
    /// keeps a host (the host is the global object's private data): setting one on another is a
    /// programming error.
    package func setHost(_ host: AnyObject?) {
        let pointer = host.map { Unmanaged.passUnretained($0).toOpaque() }
        precondition(JSObjectSetPrivate(globalObject, pointer), "a host needs a runtime whose global object is of HostClass.global")
        runningEntry.pointee.host = pointer
    }
}
