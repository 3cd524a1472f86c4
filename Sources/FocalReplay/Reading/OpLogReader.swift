import Dispatch
import FocalEngine
import FocalOpLog
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an op log on a thread of its own and hands it on in ``ReplayChunk``s, so that reading
/// (and, for a single engine, decoding) runs beside the engines instead of before them.
///
/// An op goes to the engine its session lives on: the default session on the first, a named
/// session on the one its id hashes to, so a session's ops always meet the same engine. The
/// reader keeps the set of live sessions (a session lives from its first op to its `end`)
/// and refuses an op that would start one more than the limit, for all engines together. It
/// numbers them too: each live session has a slot, reused once it ended, which goes with its
/// decoded ops so that the engine finds the session without hashing its id
/// (``FocalEngine/Engine/apply(_:session:line:sessionSlot:)``).
///
/// With one engine the reader decodes every line, so that decoding runs beside the engine. With
/// several, it reads only what a line says of its session (``OpDecoder/sessionHint(_:)-swift.method``) and
/// each engine decodes its own lines, so that decoding spreads over the engines; a line that
/// may start or end a session is still decoded here, to keep the live sessions exact.
///
/// A chunk ends after ``chunkLines`` lines or ``chunkBytes`` bytes of input, and at most
/// ``window`` chunks are on their way at once: the reader waits for the consumer to
/// ``release()`` one before it sends another, so memory stays bounded whatever the length of
/// the log (at most `window` × (`chunkBytes` + one line) of input). The reader stops early once
/// ``stop()`` was called.
final class OpLogReader: Sendable {
    /// Lines in a chunk: decoded ops take more memory than lines, and an engine that decodes its
    /// own lines has less to do per line, so it gets more of them at once.
    let chunkLines: Int
    /// Input bytes after which a chunk ends, whatever its number of lines.
    static let chunkBytes = 1 << 20
    /// Chunks on their way at once.
    static let window = 4

    private let engineCount: Int
    private let maxSessions: Int
    private let permits = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// Batches the engines are done with, released on the reader's thread: the memory of an op goes back where
    /// it was allocated, and the engines spend no time on it.
    private let applied = Mutex<[EngineBatch]>([])

    init(engineCount: Int, maxSessions: Int) {
        self.engineCount = engineCount
        self.maxSessions = maxSessions
        chunkLines = engineCount == 1 ? 1024 : 2048
        // Signalled rather than made with the window as its value: libdispatch traps when a
        // semaphore goes with a value below the one it was made with.
        for _ in 0..<Self.window { permits.signal() }
    }

    /// Starts reading `fileDescriptor` on a new thread; returns the chunks in input order.
    /// The thread closes the descriptor when it is done with it, unless it is standard input.
    /// - Throws: ``ThreadStartError`` when no thread could be started (the descriptor is closed then too).
    func start(fileDescriptor: Int32) throws(ThreadStartError) -> HandOff<ReplayChunk> {
        let chunks = HandOff<ReplayChunk>()
        let failure = DetachedThread.start { [self] in
            read(fileDescriptor, into: chunks)
            chunks.finish()
            if fileDescriptor != 0 { close(fileDescriptor) }
        }
        if let failure {
            if fileDescriptor != 0 { close(fileDescriptor) }
            throw ThreadStartError(errno: failure)
        }
        return chunks
    }

    /// The consumer is done with a chunk: the reader may send one more.
    func release() {
        permits.signal()
    }

    /// An engine is done with `batch`: the reader releases it, on its own thread, when it next sends a chunk.
    func recycle(_ batch: sending EngineBatch) {
        applied.withLock { $0.append(batch) }
    }

    /// Stops reading at the next line (the consumer went away).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        permits.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func read(_ fileDescriptor: Int32, into chunks: HandOff<ReplayChunk>) {
        let reader = LineReader(fileDescriptor: fileDescriptor)
        // A plain local, passed `inout` rather than captured by nested functions: captured, it was boxed and
        // every access checked for exclusivity at run time (two checks a line).
        var chunk = ReplayChunk(engineCount: engineCount, lines: chunkLines)
        var live = LiveSessions()
        let decoder = OpDecoder()
        do {
            while let event = try reader.next() {
                switch event {
                case .line(let bytes, let number):
                    chunk.byteCount += bytes.count + 1
                    if engineCount > 1, let hint = decoder.sessionHint(bytes), !hint.isEnd, let slot = live.slot(ofLive: hint.session) {
                        // The line's session is live (or the default one) and the line does not end it: whatever the
                        // line holds, it cannot change which sessions are live, so its engine decodes it.
                        chunk.batches[hint.session.map(engineIndex) ?? 0].append(bytes, number: number, slot: slot)
                    } else {
                        // One engine, or a line that may start or end a session: decoded here, so that the live
                        // sessions are known exactly, in input order.
                        do throws(OpLogError) {
                            if let entry = try decoder.decodeEntry(bytes),
                                let (engine, slot) = admit(entry, line: number, in: &chunk, live: &live)
                            {
                                chunk.batches[engine].append(entry, slot: slot, decodedFrom: bytes, number: number)
                            }
                        } catch {
                            Self.report(error.message, line: number, in: &chunk)
                        }
                    }
                    chunk.lineCount += 1
                    let isFull = chunk.lineCount >= chunkLines || chunk.byteCount >= Self.chunkBytes
                    guard !isFull || send(&chunk, to: chunks) else { return }
                case .oversized(let number, let byteCount):
                    chunk.byteCount += byteCount + 1
                    Self.report(
                        "the line is \(byteCount) bytes long, more than the limit of \(reader.maximumLineLength); it was skipped",
                        line: number, in: &chunk)
                case .pause:
                    chunk.endsWithPause = true
                    guard send(&chunk, to: chunks) else { return }
                }
            }
        } catch {
            // After every line read so far: the last chunk is written in line order.
            chunk.problems.append(
                NumberedItem(line: Int.max, item: .error(EngineError(.malformedOp, "reading the op log failed: \(error)"))))
        }
        _ = send(&chunk, to: chunks)
    }

    /// Hands `chunk` on once the window has room and starts the next one, releasing the batches the engines are
    /// done with; `false` when the reader was stopped meanwhile.
    private func send(_ chunk: inout ReplayChunk, to chunks: HandOff<ReplayChunk>) -> Bool {
        permits.wait()
        guard !isStopped else { return false }
        chunks.yield(chunk)
        chunk = ReplayChunk(engineCount: engineCount, lines: chunkLines)
        _ = applied.withLock { batches in  // the batches are released after the lock
            var done: [EngineBatch] = []
            swap(&done, &batches)
            return done
        }
        return true
    }

    /// Adds a malformed line's error to the chunk's problems.
    private static func report(_ message: String, line: Int, in chunk: inout ReplayChunk) {
        chunk.problems.append(NumberedItem(line: line, item: .error(EngineError(.malformedOp, message, line: line))))
    }

    /// The engine that applies `entry` and the slot of its session (-1 for the default session and for an `end`), after
    /// noting the session it starts or ends; `nil` when it would start one session more than the limit (the error
    /// joins the chunk's problems).
    private func admit(
        _ entry: OpLogEntry, line: Int, in chunk: inout ReplayChunk, live: inout LiveSessions
    ) -> (engine: Int, slot: Int32)? {
        guard let session = entry.session else { return (0, -1) }
        if case .end = entry.op {
            live.end(session)  // ending a session that is not live is the engine's error to report
            return (engineIndex(of: session), -1)
        }
        if let slot = live.slot(ofLive: session) { return (engineIndex(of: session), slot) }
        guard live.count < maxSessions else {
            let error = EngineError.sessionLimitReached(session: session, live: live.count, line: line)
            chunk.problems.append(NumberedItem(line: line, item: .error(error)))
            return nil
        }
        return (engineIndex(of: session), live.start(session))
    }

    /// The engine `session` lives on, chosen as ``EnginePool`` chooses, so the same log always
    /// spreads the same way.
    private func engineIndex(of session: String) -> Int {
        engineCount > 1 ? EnginePool.workerIndex(for: session, count: engineCount) : 0
    }
}

/// The named sessions live in the reader's input so far, each with a slot (``FocalEngine/SessionSlots``; at most the
/// session limit).
private struct LiveSessions {
    private var slots: [String: Int32] = [:]
    private var numbers = SessionSlots()

    var count: Int { slots.count }

    /// The slot of `session` when it is live, -1 for the default session (`nil`); `nil` for a session not live.
    func slot(ofLive session: String?) -> Int32? {
        guard let session else { return -1 }
        return slots[session]
    }

    /// Notes that `session` starts (it is not live) and returns its slot.
    mutating func start(_ session: String) -> Int32 {
        let slot = Int32(numbers.take())
        slots[session] = slot
        return slot
    }

    /// Notes that `session` ended, if it was live.
    mutating func end(_ session: String) {
        if let slot = slots.removeValue(forKey: session) { numbers.free(Int(slot)) }
    }
}

/// No thread could be started to read the op log (`pthread_create` failed: a limit on threads or memory).
package struct ThreadStartError: Error, CustomStringConvertible {
    package var errno: Int32
    package var description: String { "cannot start a thread to read the op log: \(String(cString: strerror(errno)))" }
}
