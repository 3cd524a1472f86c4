import Synchronization

/// Store calls that go together: requests that arrive while a call is running wait, and the
/// next call carries all of them (one round trip and one statement for many requests).
///
/// Alone, a request is sent at once, in a call of its own; under load the groups grow with
/// the load, and so does what one round trip and one statement's fixed cost in PostgreSQL
/// are spread over. A group holds at most `maximumCount` requests and never two of one key
/// (one session's appends are serialised by its row lock; two in one statement would update
/// the row twice): a request whose key is already in the group waits for the next one.
///
/// One call runs at a time, bounded by the store's call timeout, so a request waits at
/// most two calls' timeouts. A request whose task is cancelled is answered with
/// `CancellationError` at once; if its call had started, that call goes on for the others
/// and may still have stored what it asked (as a call cancelled half-way may).
final class GroupedCalls<Request: Sendable, Answer: Sendable>: Sendable {
    /// Performs one group's requests, in order; returns one answer per request, in order.
    typealias Perform = @Sendable ([Request]) async throws -> [Answer]

    private struct Waiting {
        var request: Request
        var key: String?
        var continuation: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        var nextID = 0
        /// The requests not yet in a call, by their id, in arrival order.
        var queue: [(id: Int, waiting: Waiting)] = []
        /// The requests of the running call, by id, until answered or cancelled.
        var running: [Int: Waiting] = [:]
        var isRunning = false
    }

    private let state = Mutex(State())
    private let maximumCount: Int
    private let perform: Perform

    init(maximumCount: Int, perform: @escaping Perform) {
        precondition(maximumCount > 0)
        self.maximumCount = maximumCount
        self.perform = perform
    }

    /// Sends `request` with the others waiting, and returns its answer.
    func call(_ request: Request, key: String?) async throws -> Answer {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let starts = state.withLock { state -> Bool? in
                    // Cancelled before it waits: the cancellation handler, which may already have run, found
                    // nothing to answer. The flag is set before the handler runs, so one of the two sees it.
                    guard !Task.isCancelled else { return nil }
                    state.queue.append((id, Waiting(request: request, key: key, continuation: continuation)))
                    defer { state.isRunning = true }
                    return !state.isRunning
                }
                guard let starts else { return continuation.resume(throwing: CancellationError()) }
                if starts { Task { await self.run() } }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Answers request `id` with `CancellationError` if it has not been answered yet.
    private func cancel(_ id: Int) {
        let waiting = state.withLock { state -> Waiting? in
            if let index = state.queue.firstIndex(where: { $0.id == id }) { return state.queue.remove(at: index).waiting }
            return state.running.removeValue(forKey: id)
        }
        waiting?.continuation.resume(throwing: CancellationError())
    }

    /// Runs calls until no request waits.
    private func run() async {
        while let group = nextGroup() {
            let result: Result<[Answer], any Error>
            do {
                let answers = try await perform(group.map(\.request))
                guard answers.count == group.count else {
                    throw GroupedCallsError("a grouped store call of \(group.count) requests gave \(answers.count) answers")
                }
                result = .success(answers)
            } catch {
                result = .failure(error)
            }
            for (offset, id) in group.map(\.id).enumerated() {
                guard let waiting = state.withLock({ $0.running.removeValue(forKey: id) }) else { continue }
                switch result {
                case .success(let answers): waiting.continuation.resume(returning: answers[offset])
                case .failure(let error): waiting.continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Takes the next group from the queue, or ends the running when none waits.
    private func nextGroup() -> [(id: Int, request: Request)]? {
        state.withLock { state in
            var group: [(id: Int, request: Request)] = []
            var keys: Set<String> = []
            var left: [(id: Int, waiting: Waiting)] = []
            for entry in state.queue {
                if group.count < maximumCount, entry.waiting.key.map({ keys.insert($0).inserted }) ?? true {
                    group.append((entry.id, entry.waiting.request))
                    state.running[entry.id] = entry.waiting
                } else {
                    left.append(entry)
                }
            }
            state.queue = left
            if group.isEmpty { state.isRunning = false }
            return group.isEmpty ? nil : group
        }
    }
}

/// A group's call did not answer the requests it carried one for one: a bug in its statement, reported to every
/// request of the group rather than answering one with another's answer (or trapping on an index).
struct GroupedCallsError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
