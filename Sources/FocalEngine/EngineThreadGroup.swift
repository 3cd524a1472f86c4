import FocalCore
import NIOCore
import NIOPosix

/// For the package's pool and commands: the threads engines run on. JavaScript never runs on Swift's cooperative
/// pool, so every ``EngineWorker`` is pinned to a thread (an event loop) of this group.
///
/// ``EnginePool`` starts one worker per thread and spreads sessions over them; a
/// command that replays files starts workers as it needs them with
/// ``makeWorker(configuration:)``, several per thread when it replays more files than it
/// has threads.
package final class EngineThreadGroup: Sendable {
    private let group: MultiThreadedEventLoopGroup
    /// The number of threads.
    package let count: Int

    /// Starts `count` threads.
    /// - Throws: `ConfigurationError` (setting `threads`) when `count` is not in
    ///   `FocalLimits.engineThreadsRange`; no thread was started then.
    package init(count: Int) throws(ConfigurationError) {
        try ConfigurationError.check(count, in: FocalLimits.engineThreadsRange, "threads")
        self.count = count
        group = MultiThreadedEventLoopGroup(numberOfThreads: count)
    }

    /// The threads, as event loops; anything run there delays the engines' JavaScript.
    package var eventLoopGroup: any EventLoopGroup { group }

    /// An engine on the next thread, round robin.
    /// - Throws: ``EngineError`` when the engine cannot start (a missing tasks directory).
    package func makeWorker(configuration: EngineConfiguration) async throws(EngineError) -> EngineWorker {
        try await EngineWorker(configuration: configuration, loop: group.next())
    }

    /// Stops the threads. Release the workers first (``EngineWorker/release()``), so that
    /// each engine is released on its own thread.
    package func shutdown() async {
        try? await group.shutdownGracefully()
    }
}
