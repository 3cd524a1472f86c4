import FocalEngine

/// Where a command's task results go.
package protocol ResultSink: AnyObject {
    /// Takes one result (called synchronously while the engine runs).
    func add(_ result: TaskResult)
    /// Whether enough results are waiting that ``commit()`` should run now.
    var needsCommit: Bool { get }
    /// Makes the results taken so far durable or visible; called between input blocks.
    func commit() async throws
    /// Ends the run; returns whether results were lost.
    func finish() async -> Bool
}
