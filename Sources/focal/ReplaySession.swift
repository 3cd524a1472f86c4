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
/// Input is streamed (results appear while it is still arriving); every error is
/// reported on standard error as `error: line N: …` and processing goes on.
final class ReplaySession: EngineObserver {
    let engine: Engine
    private(set) var errorCount = 0
    private let onResult: (TaskResult) -> Void

    /// - Throws: `ExitCode(2)` when the engine cannot start (for example a missing tasks directory).
    init(options: TaskOptions, onResult: @escaping (TaskResult) -> Void) throws {
        self.onResult = onResult
        do {
            engine = try Engine(configuration: options.engineConfiguration)
        } catch {
            StandardStream.error.writeLine("error: \(error.message)")
            throw ExitCode(2)
        }
        engine.observer = self
    }

    /// Replays `input` to its end. Returns the exit status: 0 without errors, 1 with.
    func replay(_ input: InputArgument) throws -> ExitCode {
        let fd: Int32
        if let path = input.path {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                StandardStream.error.writeLine("error: cannot open '\(path)': \(String(cString: strerror(errno)))")
                throw ExitCode(2)
            }
        } else {
            fd = 0
        }
        defer { if fd != 0 { close(fd) } }
        let progress = input.path.flatMap { Progress(path: $0, fileDescriptor: fd) }
        let reader = LineReader(fileDescriptor: fd)
        do {
            try reader.read { event in
                switch event {
                case .line(let bytes, let number):
                    progress?.advance(by: bytes.count + 1)
                    engine.apply(line: bytes, number: number)
                case .oversized(let number, let byteCount):
                    progress?.advance(by: byteCount + 1)
                    report("line \(number): the line is \(byteCount) bytes long, more than the limit of \(reader.maximumLineLength); it was skipped")
                case .pause:
                    StandardStream.output.flush()
                    progress?.show()
                }
            }
        } catch {
            report("reading the op log failed: \(error)")
        }
        progress?.clear()
        StandardStream.output.flush()
        return errorCount == 0 ? .success : .failure
    }

    func engine(_ engine: Engine, didProduce result: TaskResult) {
        onResult(result)
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        report(error.description)
    }

    func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat) {
        StandardStream.output.flush()
        StandardStream.error.write(text)
        StandardStream.error.flush()
    }

    private func report(_ message: String) {
        errorCount += 1
        StandardStream.output.flush()
        StandardStream.error.writeLine("error: \(message)")
        StandardStream.error.flush()
    }
}
