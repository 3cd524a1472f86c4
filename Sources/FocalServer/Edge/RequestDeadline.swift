import FocalDelivery
import NIOCore
import Synchronization

/// The deadline of every request's work (``ServerConfiguration/requestTimeout``): work not
/// done by then is cancelled and the request answers 503 with `Retry-After` at once.
///
/// The work runs in a task of its own, so the answer does not wait for it to notice the
/// cancellation: a session's gate waiter leaves its queue at once, an engine batch stops
/// between two ops, a store call is cut by its own timeout. Until then the work keeps what
/// it holds (the session's gate), and it leaves the session so that its next request
/// rebuilds it if needed (see ``SessionHost``).
struct RequestDeadline: Sendable {
    /// What watches the deadlines, and the timeout they are set at.
    let timers: DeadlineTimers
    let retryAfterSeconds: Int
    let metrics: ServerMetrics
    /// Where the work runs: the HTTP threads under `focal serve` (see ``FocalServer/run(onServerRunning:onGracefulShutdown:)``).
    let executor: (any TaskExecutor)?

    var timeout: Duration { timers.timeout }

    /// Runs `work`, or throws ``ServerError`` 503 when it is not done within the timeout.
    /// Cancelling the calling task (the client went away) cancels the work too.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let answer = Answer<T>()
        let task = Task(executorPreference: executor) {
            let result = await Result { try await work() }
            answer.resume(with: result)
        }
        let expire: @Sendable () -> Void = { [self] in
            if answer.resume(with: .failure(deadlineExceeded)) {
                metrics.requestDeadlinesExceeded.increment()
                task.cancel()
            }
        }
        let timer = timer(expire)
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await answer.value
        } onCancel: {
            task.cancel()
        }
    }

    /// A timer that calls `expire` when the deadline of work starting now passes; cancel it once the work is done.
    func timer(_ expire: @escaping @Sendable () -> Void) -> DeadlineTimer {
        DeadlineTimer(in: timers, expire)
    }

    /// The answer to a request whose deadline passed before its work was done, counted in
    /// `focal_request_deadlines_exceeded_total`.
    func exceeded() -> ServerError {
        metrics.requestDeadlinesExceeded.increment()
        return deadlineExceeded
    }

    private var deadlineExceeded: ServerError {
        ServerError(
            .serviceUnavailable, .requestTimeout,
            "the request was not done within the server's request timeout of \(timeout) (--request-timeout); "
                + "it may have been applied in part: retry it with ?position=N",
            headers: [.retryAfter: String(retryAfterSeconds)])
    }
}

/// What watches the request deadlines of a server.
enum DeadlineTimers: Sendable {
    /// On the continuous clock, a queue whose one timer watches every request's deadline: it
    /// costs no task and no thread, where a task sleeping on the clock costs one of each per
    /// request (and a timer that fires after it is cancelled).
    case queue(DeadlineQueue)
    /// On any other clock (a manual one in tests), a task per request sleeping on it.
    case sleepers(PipelineClock, timeout: Duration)

    /// The time a request's work is given.
    var timeout: Duration {
        switch self {
        case let .queue(queue): queue.timeout
        case let .sleepers(_, timeout): timeout
        }
    }
}

/// The timer of one request's deadline: in the server's queue, or a task sleeping on the clock.
enum DeadlineTimer: Sendable {
    case queued(DeadlineQueue, ticket: UInt64)
    case sleeper(Task<Void, any Error>)

    init(in timers: DeadlineTimers, _ expire: @escaping @Sendable () -> Void) {
        switch timers {
        case let .queue(queue):
            self = .queued(queue, ticket: queue.add(expire))
        case let .sleepers(clock, timeout):
            self = .sleeper(
                Task {
                    try await clock.sleep(until: clock.now + timeout)
                    expire()
                })
        }
    }

    func cancel() {
        switch self {
        case let .queued(queue, ticket): queue.remove(ticket)
        case let .sleeper(task): task.cancel()
        }
    }
}

/// The first of two outcomes (the work's or the deadline's), awaited once.
private final class Answer<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    /// Settles the answer unless it is settled; returns whether this call settled it.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        let (settled, waiter) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(with: result)
        return settled
    }

    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state -> Result<T, any Error>? in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
