import ArgumentParser
import FocalEngine
import NIOPosix

/// The threads a command's engines run on: JavaScript never runs on Swift's
/// cooperative pool, so every engine gets an event-loop thread of its own.
final class EngineThreads: Sendable {
    private let group: MultiThreadedEventLoopGroup

    init(count: Int) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: count)
    }

    /// An engine on the next thread; when it cannot start, says why and exits with 2.
    func makeWorker(_ configuration: EngineConfiguration) async throws -> EngineWorker {
        do {
            return try await EngineWorker(configuration: configuration, loop: group.next())
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
    }

    func shutdown() async {
        try? await group.shutdownGracefully()
    }
}
