#if canImport(Glibc)
import Glibc
#endif

/// Hands the memory a large session freed back to the system.
///
/// glibc's allocator keeps what is freed for the next allocations: the pages of a session's values stay resident in
/// the engine thread's arena after the session ends (300 MiB of values into one session of `focal serve` left the
/// process 400 MiB larger after its `DELETE`; BENCHMARKS.md, "Memory after a large session"). Trimming walks every
/// arena, so it runs only after a session that held at least ``largeSession`` bytes ends, on the engine's thread
/// (see ``Engine/endSession(_:)``), never on an op's path.
enum FreeMemory {
    /// The bytes a session must have held (as its budget counts them) for its end to trim: 8 MiB, some four hundred
    /// times what a session of an app's screens holds.
    static let largeSession = 8 << 20

    /// Returns the free pages of every arena of the allocator to the system (`malloc_trim(0)`); nothing where the
    /// allocator is not glibc's. (Found by name: Swift's Glibc module leaves out `malloc.h`, which declares it.)
    static func trim() {
        #if canImport(Glibc)
        guard let process = dlopen(nil, RTLD_NOW) else { return }
        defer { dlclose(process) }
        guard let symbol = dlsym(process, "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
