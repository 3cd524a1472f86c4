import NIOCore

/// A task executor over the event loops of a group that keeps a task on the loop that
/// woke it: a job enqueued from one of the group's loops runs next on that loop, any other
/// job on the group's next loop.
///
/// The server runs with this executor preferred over its HTTP threads, so a request is
/// read, handed to its session (ordered by the session's gate, on the request's own task)
/// and answered on its connection's thread; only the engine work goes to the engine worker
/// (whose executor is its loop). (A default actor on the way would cost a trip through the
/// loop's queue to enter it and one to leave it: the runtime does not switch inline to a
/// default actor under a task executor preference.)
final class EventLoopTaskExecutor: TaskExecutor, Sendable {
    private let loops: [any EventLoop]
    private let group: any EventLoopGroup
    /// An executor per loop of the group, by the loop's identity.
    private let pinned: [ObjectIdentifier: LoopTaskExecutor]

    init(group: any EventLoopGroup) {
        self.group = group
        loops = Array(group.makeIterator())
        pinned = Dictionary(uniqueKeysWithValues: loops.map { (ObjectIdentifier($0), LoopTaskExecutor(loop: $0)) })
    }

    /// The executor that keeps a task on `loop`, one of the group's (this executor for any other loop): a task that
    /// awaits an engine resumes on `loop` rather than on the group's next loop, which with several HTTP threads would
    /// cost its answer one more hop to its connection's thread.
    func pinned(to loop: any EventLoop) -> any TaskExecutor {
        pinned[ObjectIdentifier(loop)] ?? self
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let loop = currentLoop ?? group.next()
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The group's loop running on this thread, if any.
    private var currentLoop: (any EventLoop)? {
        loops.first { $0.inEventLoop }
    }
}
