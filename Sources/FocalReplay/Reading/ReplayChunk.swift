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
    /// The op-log lines read into the chunk (an oversized line, skipped, not counted), for its size limit.
    var lineCount = 0
    /// The input paused after this chunk: what came before should be written now, so
    /// results appear while input is still arriving.
    var endsWithPause = false

    /// An empty chunk; with one engine, room for `lines` decoded ops.
    init(engineCount: Int, lines: Int) {
        batches = engineCount == 1 ? [.decoded(DecodedOps(capacity: lines))] : Array(repeating: .lines(OpLogLines()), count: engineCount)
    }
}

/// One engine's part of a ``ReplayChunk``.
enum EngineBatch: Sendable {
    /// Ops the reader decoded: with one engine, decoding runs beside it.
    case decoded(DecodedOps)
    /// Lines for the engine to decode: with several engines, each decodes its own lines, so that decoding
    /// spreads over them instead of holding them all up.
    case lines(OpLogLines)

    /// Adds a line the reader decoded: the op (with its session's slot) for an engine that takes decoded ops, the line
    /// for one that decodes its own.
    mutating func append(_ entry: consuming OpLogEntry, slot: Int32, decodedFrom line: UnsafeRawBufferPointer, number: Int) {
        guard case .decoded(let ops) = self else { return append(line, number: number, slot: slot) }
        ops.append(entry, line: number, slot: slot)
    }

    /// Adds a line for an engine that decodes its own, whose session has slot `slot`.
    mutating func append(_ line: UnsafeRawBufferPointer, number: Int, slot: Int32) {
        guard case .lines(var lines) = self else { preconditionFailure("a line for an engine that takes decoded ops") }
        self = .lines(OpLogLines())
        lines.append(line, number: number, slot: slot)
        self = .lines(lines)
    }
}
