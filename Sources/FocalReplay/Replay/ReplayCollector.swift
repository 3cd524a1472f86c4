import FocalCore
import FocalEngine
import FocalOpLog
import Logging

/// Applies batches of ops to one engine and keeps what the engine produced, numbered by
/// line, instead of writing it: ``OpLogReplay`` writes the items of all its engines in
/// input order.
///
/// It is the engine's observer, and its ``consoleLogger`` is the engine's console logger, so
/// a task's `console.*` lines keep their place among results and errors.
/// Used only on its engine's thread: its stored properties, touched for every result, opt out of the runtime's
/// exclusivity checks.
final class ReplayCollector: EngineObserver, @unchecked Sendable {
    @exclusivity(unchecked) private var items: [NumberedItem] = []
    @exclusivity(unchecked) private var line = 0

    /// Applies `batch` in order (decoding its lines, if the reader left them to the engine) and returns what the
    /// engine produced.
    func apply(_ batch: EngineBatch, to engine: Engine) -> [NumberedItem] {
        engine.observer = self
        switch batch {
        case .decoded(let ops):
            engine.withOneEntry {
                ops.takeNext { entry, number, slot in
                    line = number
                    engine.apply(entry, line: number, sessionSlot: Int(slot))
                }
            }
        case .lines(let lines):
            var next = 0
            engine.withOneEntry {
                guard next < lines.count else { return false }
                lines.withLine(at: next) { bytes, number, slot in
                    line = number
                    engine.apply(line: bytes, number: number, sessionSlot: Int(slot))
                }
                next += 1
                return true
            }
        }
        defer { items.removeAll(keepingCapacity: true) }
        return items
    }

    /// The end of the input on `engine`: what each live session's end event produced
    /// (see ``Engine/endOfInput()``), session by session in the order they ended.
    func endOfInput(_ engine: Engine) -> [SessionEndItems] {
        engine.observer = self
        var ended: [SessionEndItems] = []
        var sessions = ([nil] + engine.sessionIDs.map(Optional.some))[...]
        var ending: String??
        engine.withOneEntry {
            // What a session's end produced is complete once its step and the work after it ran.
            if let session = ending, !items.isEmpty {
                // Moved out, not copied: keeping the buffer's capacity would make a new buffer
                // of that size for every session.
                ended.append(SessionEndItems(session: session, items: items))
                items = []
            }
            guard let session = sessions.popFirst() else { return false }
            ending = session
            engine.recordEnd(ofSession: session, reason: .endOfInput)
            return true
        }
        return ended
    }

    func engine(_ engine: Engine, didProduce result: consuming TaskResult) {
        assert(engine.isFreeForCurrentThread, "replay's collector reached while another thread is inside its engine")
        items.append(NumberedItem(line: line, item: .result(consume result)))
    }

    func engine(_ engine: Engine, didReport error: EngineError) {
        assert(engine.isFreeForCurrentThread, "replay's collector reached while another thread is inside its engine")
        items.append(NumberedItem(line: line, item: .error(error)))
    }

    func engine(_ engine: Engine, didTakeSnapshot text: String, format: SnapshotFormat, session: SessionID?) {
        assert(engine.isFreeForCurrentThread, "replay's collector reached while another thread is inside its engine")
        items.append(NumberedItem(line: line, item: .snapshot(text)))
    }

    /// A console logger whose lines join this collector's items, formatted as `focal replay` prints them.
    var consoleLogger: Logger {
        Logger(label: "focal.console") { _ in DiagnosticLogHandler(logLevel: .debug) { [self] lines in console(lines) } }
    }

    /// A logger for the engine's warnings and reload reports (``EngineConfiguration/logger``)
    /// whose lines, like console lines, keep their place among results and errors.
    var engineLogger: Logger {
        Logger(label: "focal.engine") { _ in DiagnosticLogHandler(logLevel: .info) { [self] lines in console(lines) } }
    }

    private func console(_ lines: [String]) {
        items.append(NumberedItem(line: line, item: .console(lines)))
    }
}
