import NIOCore

/// A task executor that runs every job on one event loop, wherever the job was enqueued from: a request's task
/// preferring it comes back from its engine to its connection's thread (see ``EventLoopTaskExecutor/pinned(to:)``).
final class LoopTaskExecutor: TaskExecutor, Sendable {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
