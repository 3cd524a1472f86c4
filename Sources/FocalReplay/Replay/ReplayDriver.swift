import NIOCore
import NIOPosix

/// An actor on a thread of its own, where a replay over several engines runs its loop: it hands each engine its
/// batches and writes what they produced. Results are written with blocking calls, which do not belong on Swift's
/// cooperative pool, and an engine that also did this work would fall behind the others.
package actor ReplayDriver {
    private nonisolated let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private nonisolated let loop: any EventLoop

    package init() {
        loop = group.next()
    }

    /// Stops the driver's thread.
    package nonisolated func shutdown() async {
        try? await group.shutdownGracefully()
    }

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.executor.asUnownedSerialExecutor()
    }

    /// Runs `body` on the driver's thread.
    package func run<Result: Sendable>(_ body: @Sendable (isolated ReplayDriver) async throws -> Result) async rethrows -> Result {
        try await body(self)
    }
}
