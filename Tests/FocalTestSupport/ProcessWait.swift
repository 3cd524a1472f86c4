import Foundation

/// Starts `process` and waits until it exits or `timeout` passes, then kills it; returns whether it timed out.
///
/// The wait is on the process's termination, not a polling loop: a process that exits at once is seen at once.
public func runWaitingForExit(_ process: Process, timeout: Duration) throws -> Bool {
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
    guard exited.wait(timeout: .now() + seconds) == .timedOut else { return false }
    kill(process.processIdentifier, SIGKILL)
    exited.wait()
    return true
}
