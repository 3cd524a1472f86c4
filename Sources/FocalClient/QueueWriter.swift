import FocalCore
import FocalOpLog
import Foundation

/// A ``Recorder``'s writer: a thread of its own that takes the ops buffered since its last
/// commit, encodes them as op-log lines naming their session and appends them to the queue in one transaction (group
/// commit), every `interval`, when asked to flush, or early once ``eagerCommit`` ops wait. The recording thread only
/// appends to an array under an uncontended lock; at most ``Recorder/backlogLimit`` ops wait at once.
final class QueueWriter: @unchecked Sendable {
    /// The longest ``flush()`` waits for a commit: 30 s.
    static let flushDeadline: TimeInterval = 30
    /// How many waiting ops wake the writer before its interval ends: a tenth of the backlog limit.
    static let eagerCommit = Recorder.backlogLimit / 10
    private let queue: OpQueue
    private let session: SessionID
    private let interval: TimeInterval
    /// Guards every variable below (@unchecked Sendable: only under it).
    private let condition = NSCondition()
    private var pending: [(op: Op, time: Int64)] = []
    /// Commits asked for (by ``flush()``) and done; a flush waits until `committed` reaches its request.
    private var requested = 0
    private var committed = 0
    private var lastError: (any Error)?
    private var stopping = false
    private var stopped = false

    init(queue: OpQueue, session: SessionID, interval: Duration) {
        self.queue = queue
        self.session = session
        self.interval = Double(interval.components.seconds) + Double(interval.components.attoseconds) * 1e-18
        let thread = Thread { [self] in run() }
        thread.name = "focal.client.writer"
        thread.start()
    }

    /// Whether another op may be buffered: fewer than ``Recorder/backlogLimit`` wait. Only the writer takes ops
    /// away, so the answer holds until the caller buffers.
    func hasRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return pending.count < Recorder.backlogLimit
    }

    /// What the last commit failed with, if it failed.
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return lastError
    }

    /// Buffers one op; no encoding, and no system call but the writer's wake-up once ``eagerCommit`` ops wait.
    func buffer(_ op: Op, time: Int64) {
        condition.lock()
        pending.append((op, time))
        if pending.count == Self.eagerCommit { condition.broadcast() }
        condition.unlock()
    }

    /// Waits until everything buffered before the call is committed (at most ``flushDeadline``).
    func flush() throws {
        condition.lock()
        defer { condition.unlock() }
        requested += 1
        let target = requested
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: Self.flushDeadline)
        while committed < target, !stopped {
            guard condition.wait(until: deadline) else { throw QueueWriterError.flushTimedOut }
        }
        if let lastError, committed < target || !pending.isEmpty { throw lastError }
    }

    /// Flushes and stops the thread.
    func close() throws {
        defer {
            condition.lock()
            stopping = true
            condition.broadcast()
            while !stopped { condition.wait() }
            condition.unlock()
        }
        try flush()
    }

    private func run() {
        condition.lock()
        while true {
            if requested == committed, !stopping, pending.count < Self.eagerCommit {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
            }
            if stopping, pending.isEmpty || lastError != nil { break }
            let ops = pending
            let target = requested
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            let lines = ops.map {
                QueuedLine(
                    session: session, bytes: Array(OpLogEntry(session: session.rawValue, Self.stamped($0.op, time: $0.time)).jsonLine.utf8))
            }
            var failure: (any Error)?
            do {
                if !lines.isEmpty { try queue.append(lines) }
            } catch {
                failure = error
            }
            condition.lock()
            if let failure {
                pending.insert(contentsOf: ops, at: 0)  // tried again at the next commit
                lastError = failure
            } else {
                lastError = nil
            }
            committed = target
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// `op` with its `time`.
    private static func stamped(_ op: Op, time: Int64) -> Op {
        switch op {
        case .register(var registration):
            registration.time = time
            return .register(registration)
        case .record(var recording):
            recording.time = time
            return .record(recording)
        case .deregister(var deregistration):
            deregistration.time = time
            return .deregister(deregistration)
        case .snapshot, .end:
            return op
        }
    }
}

enum QueueWriterError: Error, CustomStringConvertible {
    case flushTimedOut

    var description: String { "the recorder's writer did not commit within \(Int(QueueWriter.flushDeadline)) s" }
}
