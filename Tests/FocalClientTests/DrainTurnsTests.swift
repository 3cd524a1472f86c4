import FocalCore
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Synchronization
import Testing

@testable import FocalClient

/// Two drains of one sender at once: the second waits for the first, so a session never has two batches in flight.
@Suite("Sender: one drain at a time")
struct DrainTurnsTests {
    /// A clock whose waits last until the test lets them end, and that says when one starts.
    final class HeldClock: SenderClock {
        private let state = Mutex((now: Duration.zero, held: [CheckedContinuation<Void, Never>]()))
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation

        init() {
            (started, startedContinuation) = AsyncStream.makeStream()
        }

        func now() -> Duration { state.withLock { $0.now } }

        func sleep(for duration: Duration) async throws {
            await withCheckedContinuation { continuation in
                state.withLock {
                    $0.now += duration
                    $0.held.append(continuation)
                }
                startedContinuation.yield()
            }
        }

        /// Ends every wait begun so far.
        func release() {
            for waiting in state.withLock({ held in
                defer { held.held = [] }
                return held.held
            }) { waiting.resume() }
        }
    }

    @Test("a drain started while another waits out a 503 waits for it, and posts nothing meanwhile")
    func secondDrainWaits() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        // The first request is answered 503; every later one 400 (the receiver takes no op-log lines), which stops a drain.
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: [.status(503)]))
        let clock = HeldClock()
        let queue = try OpQueue(directory: directory.path)
        try await queue.append([
            QueuedLine(session: try SessionID("s"), bytes: Array(#"{"op":"register","node":1,"parent":null,"name":"r"}"#.utf8))
        ])
        let sender = Sender(queue: queue, configuration: SenderConfiguration(server: "http://127.0.0.1:\(receiver.port)"), clock: clock)
        let first = Task { try await sender.drain() }
        var starts = clock.started.makeAsyncIterator()
        _ = await starts.next()  // the first drain waits out its 503, its batch in flight
        let second = Task { try await sender.drain() }
        // Either the second drain waits for its turn, or (without turns) it posts the same batch: whichever comes first.
        let deadline = ContinuousClock.now + .seconds(30)
        while sender.drains.waitingCount == 0, receiver.requests.count < 2, ContinuousClock.now < deadline { await Task.yield() }
        #expect(sender.drains.waitingCount == 1)
        #expect(receiver.requests.map(\.status) == [503])
        clock.release()
        await #expect(throws: SenderError.self) { try await first.value }
        await #expect(throws: SenderError.self) { try await second.value }
        // The first drain's retry, then the second drain's own try: one batch in flight at a time.
        #expect(receiver.requests.map(\.status) == [503, 400, 400])
        try await sender.shutdown()
        await receiver.stop()
    }
}
