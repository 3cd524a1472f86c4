import FocalJSON
import Hummingbird
import Logging
import ServiceLifecycle

/// A real HTTP server on 127.0.0.1 (a free port) that receives delivery batches, with
/// scriptable faults: 5xx, 429 with `Retry-After`, 413 above a body size, hanging
/// answers, and "stored but failed" answers that cause duplicates.
///
/// ```swift
/// let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.status(503)]))
/// // … deliver to receiver.url …
/// #expect(receiver.uniqueMessages().count == 100)
/// await receiver.stop()
/// ```
///
/// It records every request it answers and the messages of every batch it stored, and
/// can de-duplicate them by `messageId`. Always call ``stop()``.
public final class LoopbackReceiver: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let state: SharedReceiverState
    private let services: ServiceGroup
    private let server: Task<Void, Never>

    private init(port: Int, state: SharedReceiverState, services: ServiceGroup, server: Task<Void, Never>) {
        self.port = port
        self.state = state
        self.services = services
        self.server = server
    }

    /// Starts a receiver behaving as `behavior` and returns once it listens.
    public static func start(behavior: ReceiverBehavior = .accepting) async throws -> LoopbackReceiver {
        let state = SharedReceiverState(ReceiverState(behavior: behavior))
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "focal.test.receiver")
        logger.logLevel = .warning
        let application = Application(
            responder: ReceiverResponder(state: state),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        let server = Task {
            try? await services.run()
            portContinuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            server.cancel()
            throw ReceiverError.couldNotStart
        }
        return LoopbackReceiver(port: port, state: state, services: services, server: server)
    }

    /// The URL to deliver to.
    public var url: String { "http://127.0.0.1:\(port)/batch" }

    /// Releases hanging requests and shuts the server down gracefully.
    public func stop() async {
        state.stop()
        await services.triggerGracefulShutdown()
        await server.value
    }

    /// Replaces the behaviour from the next request on (the script starts again).
    public func setBehavior(_ behavior: ReceiverBehavior) {
        state.withLock { $0 = ReceiverState(behavior: behavior, keeping: $0) }
    }

    /// Every request answered, in the order the answers were given.
    public var requests: [ReceivedRequest] {
        state.withLock { $0.requests }
    }

    /// Every batch stored, in the order they arrived, duplicates included.
    public var batches: [[ReceivedMessage]] {
        state.withLock { $0.batches }
    }

    /// The messages of every batch stored, in the order they arrived, duplicates included.
    public var messages: [ReceivedMessage] {
        batches.flatMap { $0 }
    }

    /// The stored messages without duplicates: the first of each `messageId`, in order.
    public func uniqueMessages() -> [ReceivedMessage] {
        var seen = Set<String>()
        return messages.filter { seen.insert($0.messageID).inserted }
    }

    /// How many stored messages repeat a `messageId` seen before.
    public var duplicateCount: Int {
        messages.count - uniqueMessages().count
    }

    /// Waits until at least `count` unique messages are stored; returns whether they are.
    public func waitForUniqueMessages(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        await wait(timeout: timeout) { $0.uniqueIDs.count >= count }
        return uniqueMessages().count >= count
    }

    /// Waits until a request is hanging (held without an answer); returns whether one is.
    public func waitForHangingRequest(timeout: Duration = .seconds(30)) async -> Bool {
        await wait(timeout: timeout) { $0.hanging > 0 }
        return state.withLock { $0.hanging > 0 }
    }

    /// Waits until `condition` holds, woken by the change that makes it hold; `timeout`
    /// is only a safety net for a test that would otherwise hang.
    private func wait(timeout: Duration, _ condition: @escaping @Sendable (ReceiverState) -> Bool) async {
        let token = state.makeToken()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.state.until(token: token, condition) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.state.release(token)
            }
            await group.next()
            group.cancelAll()
        }
    }
}

/// The receiver could not listen.
public enum ReceiverError: Error {
    /// The server did not start.
    case couldNotStart
}
