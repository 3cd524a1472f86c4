import FocalOpLog

/// A stretch of the op log as the reader hands it on: for each engine its part (ops, or lines
/// it decodes itself), and the lines that are not ops.
struct ReplayChunk: Sendable {
    /// For each engine, its part of the chunk in input order.
    var batches: [EngineBatch]
    /// Lines that could not be read as ops (and ops refused before reaching an engine),
    /// with their errors.
    var problems: [NumberedItem] = []
    /// The bytes of input the chunk covers, for the progress line.
    var byteCount = 0
    /// The input paused after this chunk: what came before should be written now, so
    /// results appear while input is still arriving.
    var endsWithPause = false

    init(engineCount: Int) {
        batches = Array(repeating: engineCount == 1 ? .decoded([]) : .lines(OpLogLines()), count: engineCount)
    }
}

/// One engine's part of a ``ReplayChunk``.
enum EngineBatch: Sendable {
    /// Ops the reader decoded: with one engine, decoding runs beside it.
    case decoded([NumberedOp])
    /// Lines for the engine to decode: with several engines, each decodes its own lines, so that decoding
    /// spreads over them instead of holding them all up.
    case lines(OpLogLines)

    /// Adds a line the reader decoded: the op for an engine that takes decoded ops, the line for one that
    /// decodes its own.
    mutating func append(_ entry: OpLogEntry, decodedFrom line: UnsafeRawBufferPointer, number: Int) {
        guard case .decoded(var ops) = self else { return append(line, number: number) }
        self = .decoded([])
        ops.append(NumberedOp(line: number, entry: entry))
        self = .decoded(ops)
    }

    mutating func append(_ line: UnsafeRawBufferPointer, number: Int) {
        guard case .lines(var lines) = self else { preconditionFailure("a line for an engine that takes decoded ops") }
        self = .lines(OpLogLines())
        lines.append(line, number: number)
        self = .lines(lines)
    }
}
