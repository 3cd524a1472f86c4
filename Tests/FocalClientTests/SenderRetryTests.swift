import FocalClient
import FocalCore
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Synchronization
import Testing

/// The sender's waits, against a loopback HTTP server that answers 429 and 503, with a clock
/// that records each wait instead of sleeping.
@Suite("Sender: Retry-After plus jitter, else capped exponential backoff, and the patience")
struct SenderRetryTests {
    /// A clock whose time moves only by the waits asked of it.
    final class RecordingClock: SenderClock {
        private let state = Mutex((now: Duration.zero, waits: [Duration]()))
        var waits: [Duration] { state.withLock { $0.waits } }
        func now() -> Duration { state.withLock { $0.now } }
        func sleep(for duration: Duration) async throws {
            state.withLock {
                $0.now += duration
                $0.waits.append(duration)
            }
        }
    }

    static func queue(in directory: TemporaryDirectory) async throws -> OpQueue {
        let queue = try OpQueue(directory: directory.path)
        try await queue.append([
            QueuedLine(session: try SessionID("s"), bytes: Array(#"{"op":"register","node":1,"parent":null,"name":"r"}"#.utf8))
        ])
        return queue
    }

    @Test("429 with Retry-After: 7 waits 7 to 8 s; a 503 without one then waits 0.5 to 1 s, the next 1 to 2 s; the lines stay queued")
    func retryAfterThenBackoff() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let receiver = try await LoopbackReceiver.start(
            behavior: ReceiverBehavior(script: [.tooManyRequests(retryAfter: 7), .status(503), .status(503)]))
        let clock = RecordingClock()
        let sender = Sender(
            queue: try await Self.queue(in: directory), configuration: SenderConfiguration(server: "http://127.0.0.1:\(receiver.port)"),
            clock: clock)
        // The fourth request is accepted by a receiver that takes no op-log lines: 400, which stops the sender.
        await #expect(throws: SenderError.self) { try await sender.drain() }
        try await sender.shutdown()
        await receiver.stop()
        let waits = clock.waits
        #expect(waits.count == 3, "\(waits)")
        if waits.count == 3 {
            #expect(waits[0] >= .seconds(7) && waits[0] <= .seconds(8), "\(waits)")
            #expect(waits[1] >= .milliseconds(500) && waits[1] <= .seconds(1), "\(waits)")
            #expect(waits[2] >= .seconds(1) && waits[2] <= .seconds(2), "\(waits)")
        }
        #expect(sender.figures.retried == 3 && sender.figures.sent == 0)
        #expect(receiver.requests.map(\.status) == [429, 503, 503, 400])
    }

    @Test("a server answering only 503 is given up once the patience has passed; the waits double up to the cap")
    func patience() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(randomFaults: [(.status(503), 1)]))
        let clock = RecordingClock()
        var configuration = SenderConfiguration(server: "http://127.0.0.1:\(receiver.port)")
        configuration.patience = .seconds(30)
        configuration.backoff = Backoff(base: .milliseconds(500), cap: .seconds(4))
        let queue = try await Self.queue(in: directory)
        let sender = Sender(queue: queue, configuration: configuration, clock: clock)
        await #expect(throws: SenderError.self) { try await sender.drain() }
        try await sender.shutdown()
        await receiver.stop()
        let waits = clock.waits
        // 0.5, 1, 2, then 4 s at most each: the last wait is capped, and they add up to the patience.
        #expect(waits.count >= 8, "\(waits)")
        #expect(waits.allSatisfy { $0 <= .seconds(4) }, "\(waits)")
        #expect(waits.dropFirst(3).allSatisfy { $0 >= .seconds(2) }, "\(waits)")
        #expect(waits.reduce(.zero, +) >= .seconds(30))
        #expect(try await queue.held().lines == 1)
    }

    @Test("409 session-sealed is waited out and sent again under the same id; session-lost, an unknown code or none continue it")
    func conflictByCode() async throws {
        func sealed() -> ReceiverFault {
            .statusWithBody(409, body: #"{"status":409,"error":"the session is ending","code":"session-sealed"}"#)
        }
        let cases: [(script: [ReceiverFault?], paths: [String], retried: Int, continued: Int)] = [
            ([sealed(), sealed()], ["/v1/sessions/s/ops", "/v1/sessions/s/ops", "/v1/sessions/s/ops"], 2, 0),
            (
                [.statusWithBody(409, body: #"{"status":409,"error":"lost","code":"session-lost","length":0}"#)],
                ["/v1/sessions/s/ops", "/v1/sessions/s~2/ops"], 0, 1
            ),
            (
                [.statusWithBody(409, body: #"{"status":409,"error":"gone","code":"a-code-of-tomorrow"}"#)],
                ["/v1/sessions/s/ops", "/v1/sessions/s~2/ops"], 0, 1
            ),
            ([.status(409)], ["/v1/sessions/s/ops", "/v1/sessions/s~2/ops"], 0, 1),
        ]
        for expected in cases {
            let directory = try TemporaryDirectory(prefix: "focal-client-")
            let receiver = try await LoopbackReceiver.start(behavior: ReceiverBehavior(script: expected.script))
            let clock = RecordingClock()
            let sender = Sender(
                queue: try await Self.queue(in: directory), configuration: SenderConfiguration(server: "http://127.0.0.1:\(receiver.port)"),
                clock: clock)
            // After the script, a receiver that takes no op-log lines answers 400, which stops the sender.
            await #expect(throws: SenderError.self) { try await sender.drain() }
            try await sender.shutdown()
            await receiver.stop()
            #expect(receiver.requests.map(\.path) == expected.paths, "\(expected.script)")
            #expect(clock.waits.count == expected.retried, "\(expected.script)")
            #expect(sender.figures.retried == expected.retried && sender.figures.continued == expected.continued, "\(expected.script)")
        }
    }
}
