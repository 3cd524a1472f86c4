import Foundation

/// How a finished `focal` run went.
public struct RunResult: CustomStringConvertible, Sendable {
    public var status: Int32
    /// Whether the process was killed by a signal (a crash) rather than exiting.
    public var crashed: Bool
    public var timedOut: Bool
    public var stdout: String
    public var stderr: String

    public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    public var errorLines: [String] { stderrLines.filter { $0.hasPrefix("error:") } }
    /// The lines of standard output and error as a terminal shows them: split at every
    /// `\n` and `\r` (`"\r\n"` is one `Character`, which splitting on `"\n"` never finds).
    public var physicalLines: [String] { (stdout + "\n" + stderr).unicodeScalars.split { $0 == "\n" || $0 == "\r" }.map { String($0) } }

    public var description: String {
        "status \(status)\(crashed ? " (signal)" : "")\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout.prefix(2000))\n--- stderr\n\(stderr.prefix(2000))"
    }
}

/// Runs `focal` (or `executable`) with `arguments` and `input` on standard input, killing it
/// after `timeout`, with `environment` added to this process's. Output goes through files, so
/// a large output never blocks the child; or standard output goes to `standardOutput` (closed
/// once the child exits), and the result's `stdout` is empty.
public func runFocal(
    _ arguments: [String], input: Data = Data(), timeout: Duration = .seconds(60), executable: String = focalBinary,
    environment: [String: String] = [:], standardOutput: FileHandle? = nil
) throws -> RunResult {
    let scratch = try TemporaryDirectory(prefix: "focal-run-")
    let inPath = try scratch.write("stdin", input)
    let outPath = try scratch.write("stdout", Data())
    let errPath = try scratch.write("stderr", Data())
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
    process.standardOutput = try standardOutput ?? FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let timedOut = try runWaitingForExit(process, timeout: timeout)
    try? standardOutput?.close()
    return RunResult(
        status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal && !timedOut, timedOut: timedOut,
        stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
}
