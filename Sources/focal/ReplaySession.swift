#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import FocalEngine
import FocalOpLog

/// Replays an op log through an engine: the loop shared by `replay` and `snapshot`.
///
/// It runs on the engine's own thread (see ``EngineWorker``), where reading the log
/// and running tasks block nothing else. Input is streamed (results reach the sink
/// while it is still arriving); every error is reported as `error: line N: …` and
/// processing goes on.
final class ReplaySession: EngineObserver {
    let engine: Engine
    private(set) var errorCount = 0
    /// Where results go; `nil` discards them.
    private let sink: (any ResultSink)?
    /// Where errors and snapshots go.
    private let diagnostics: StandardStream
    /// Names the log in error lines when several logs are replayed at once.
    private let label: String?

    init(engine: Engine, sink: (any ResultSink)?, diagnostics: StandardStream = .error, label: String? = nil) {
        self.engine = engine
        self.sink = sink
        self.diagnostics = diagnostics
        self.label = label
        engine.observer = self
    }

    /// Replays the log at `path` (standard input when `nil`) to its end and finishes the
    /// sink. Returns the exit status: 0 without errors, 1 with errors or lost results.
    func replay(path: String?) async throws -> ExitCode {
        let fd: Int32
        if let path {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                diagnostics.writeError("cannot open '\(path)': \(String(cString: strerror(errno)))")
                throw ExitCode(2)
            }
        } else {
            fd = 0
        }
        defer { if fd != 0 { close(fd) } }
        let progress = label == nil ? path.flatMap { Progress(path: $0, fileDescriptor: fd) } : nil
        let reader = LineReader(fileDescriptor: fd)
        do {
            reading: while let event = try reader.next() {
                switch event {
                case .line(let bytes, let number):
                    // Nobody reads the results any more (`| head`): stop, as the contract's closed pipe allows.
                    guard !StandardStream.output.isClosed else { break reading }
                    progress?.advance(by: bytes.count + 1)
                    engine.apply(line: bytes, number: number)
                    if let sink, sink.needsCommit { try await sink.commit() }
                case .oversized(let number, let byteCount):
                    progress?.advance(by: byteCount + 1)
                    report("line \(number): the line is \(byteCount) bytes long, more than the limit of \(reader.maximumLineLength); it was skipped")
                case .pause:
                    try await sink?.commit()
                    progress?.show()
                }
            }
        } catch let error as LineReaderError {
            report("reading the op log failed: \(error)")
        }
        progress?.clear()
        try await sink?.commit()
        let lost = await sink?.finish() ?? false
        return errorCount == 0 && !lost ? .success : .failure
    }

    func engine(_ engine: Engine, didProduce result: TaskResult) {
        sink?.add(result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        report(error.description)
    }

    func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: String?) {
        StandardStream.output.flush()
        diagnostics.write(text)
        diagnostics.flush()
    }

    private func report(_ message: String) {
        errorCount += 1
        StandardStream.output.flush()
        diagnostics.writeError((label.map { "\($0): " } ?? "") + message)
        diagnostics.flush()
    }
}
