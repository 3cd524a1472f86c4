#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSRuntime {
    /// Sizes JavaScriptCore's heap for a process that has `bytes` of memory to spend,
    /// instead of the machine's whole RAM, so the collector runs before the heap grows
    /// large. A command-line tool that runs one engine calls this to keep a small,
    /// constant footprint; a server with many engines leaves the default.
    ///
    /// It sets JavaScriptCore's `forceRAMSize` option, which is read once, when the first
    /// runtime in the process is created: call it before that. A value already set in
    /// the environment (`JSC_forceRAMSize`) wins.
    public static func setProcessMemoryBudget(bytes: Int) {
        setenv("JSC_forceRAMSize", String(bytes), 0)
    }
}
