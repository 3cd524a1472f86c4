import FocalCore
import FocalEngine
import FocalOpLog

/// Where a command's engine output goes: results to a sink, errors, snapshots and task
/// `console.*` lines to standard error (or to a spool when several logs run at once).
///
/// `focal run` uses it as its engine's observer; ``OpLogReplay`` hands it what its engines
/// produced, in input order. Every error is written as `error: line N: …` and counted.
package final class ReplayOutput: EngineObserver {
    package private(set) var errorCount = 0
    /// Where results go; `nil` discards them.
    package let sink: (any ResultSink)?
    /// Where errors, snapshots and console lines go.
    private let diagnostics: StandardStream
    /// Names the log in error lines when several logs are replayed at once.
    private let label: String?

    package init(sink: (any ResultSink)?, diagnostics: StandardStream = .error, label: String? = nil) {
        self.sink = sink
        self.diagnostics = diagnostics
        self.label = label
    }

    /// Writes one item an engine produced.
    package func write(_ item: ReplayItem) {
        switch item {
        case .result(let result): sink?.add(result)
        case .error(let error): report(error.description, details: error.script?.detailLines ?? [])
        case .snapshot(let text): diagnose { $0.write(text) }
        case .console(let lines): diagnose { stream in for line in lines { stream.writeLine(line) } }
        }
    }

    package func engine(_ engine: Engine, didProduce result: TaskResult) {
        write(.result(result))
    }

    package func engine(_ engine: Engine, didReport error: EngineError) {
        write(.error(error))
    }

    package func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: SessionID?) {
        write(.snapshot(text))
    }

    private func report(_ message: String, details: [String]) {
        errorCount += 1
        diagnose { $0.writeError((label.map { "\($0): " } ?? "") + message, details: details) }
    }

    /// Writes on the diagnostics stream, after what standard output holds, so that both read in order.
    private func diagnose(_ write: (StandardStream) -> Void) {
        StandardStream.output.flush()
        write(diagnostics)
        diagnostics.flush()
    }
}
