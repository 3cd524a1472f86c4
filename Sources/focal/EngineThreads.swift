import ArgumentParser
import FocalEngine
import NIOCore
import NIOPosix

/// The threads a command's engines run on: JavaScript never runs on Swift's
/// cooperative pool, so every engine gets an event-loop thread of its own.
final class EngineThreads: Sendable {
    private let group: MultiThreadedEventLoopGroup
    /// The thread that drives a replay over several engines (see ``ReplayDriver``), when asked for.
    let driver: ReplayDriver?

    /// - Parameters:
    ///   - count: the engines' threads.
    ///   - withDriver: whether a replay over several engines gets a thread of its own to hand out batches and
    ///     write results, so that every engine's thread only applies ops.
    init(count: Int, withDriver: Bool = false) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: count + (withDriver ? 1 : 0))
        var loops = group.makeIterator()
        driver = withDriver ? loops.next().map(ReplayDriver.init(loop:)) : nil
    }

    /// An engine on the next thread; when it cannot start, says why and exits with 2.
    func makeWorker(_ configuration: EngineConfiguration) async throws -> EngineWorker {
        do {
            return try await EngineWorker(configuration: configuration, loop: nextEngineLoop())
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
    }

    /// The next loop that is not the driver's.
    private func nextEngineLoop() -> any EventLoop {
        while true {
            let loop = group.next()
            if loop !== driver?.loop { return loop }
        }
    }

    func shutdown() async {
        try? await group.shutdownGracefully()
    }
}
