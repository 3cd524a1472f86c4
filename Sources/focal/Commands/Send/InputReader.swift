import FocalClient
import FocalCore
import FocalOpLog
import FocalReplay
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `focal send`'s inputs read into its queue, on a thread of their own: each line under its
/// session (`default` for a line that names none; a line whose id `SessionID` refuses is counted refused and
/// reported, not queued, as the server would refuse it), in groups of up to ``groupLines`` lines and
/// ``groupBytes`` bytes (or what the input had when it paused), each group appended in one transaction with how far its
/// input was read, so a run started again on the same queue skips the lines it queued before.
///
/// Large groups matter when many sessions interleave: each session's lines are stored together, so a transaction
/// writes a page per session it touches, and 10,000 lines of 1,000 sessions write a tenth of the pages 1,000-line
/// groups did (queueing 400,000 such lines: 15.7 s of CPU with groups of 1,000, 7.8 s with 10,000; BENCHMARKS.md).
final class InputReader: Sendable {
    /// What the reader tells the command.
    enum Event: Sendable {
        /// A group of lines was queued.
        case queued
        /// An input could not be read (the message names it).
        case failed(String)
    }

    static let groupLines = 10_000
    static let groupBytes = 4 << 20
    private let inputs: [String]
    private let queue: OpQueue
    private let sender: Sender

    init(inputs: [String], queue: OpQueue, sender: Sender) {
        self.inputs = inputs
        self.queue = queue
        self.sender = sender
    }

    func read(into continuation: AsyncStream<Event>.Continuation) {
        defer { continuation.finish() }
        for input in inputs {
            do {
                try read(input, into: continuation)
            } catch {
                continuation.yield(.failed("\(input == "-" ? "standard input" : "'\(input)'"): \(error)"))
            }
        }
    }

    private func read(_ input: String, into continuation: AsyncStream<Event>.Continuation) throws {
        let source = input == "-" ? "-" : URL(fileURLWithPath: input).standardizedFileURL.path
        let descriptor = input == "-" ? 0 : open(input, O_RDONLY)
        guard descriptor >= 0 else { throw InputError.cannotOpen(String(cString: strerror(errno))) }
        defer { if descriptor != 0 { close(descriptor) } }
        let done = try queue.inputLines(of: source)
        let defaultSession = try SessionID("default")
        let reader = LineReader(fileDescriptor: descriptor)
        var group: [QueuedLine] = []
        var groupBytes = 0
        var read = 0
        func commit() throws {
            guard read > done else { return }
            let drop = try queue.append(group, input: InputProgress(source: source, lines: read))
            sender.count {
                $0.queued += group.count - drop.lines
                $0.dropped += drop.lines
                $0.droppedSessions += drop.sessions
            }
            if drop.sessions > 0 {
                StandardStream.error.writeLine(
                    "focal send: the queue reached its byte limit: dropped \(drop.sessions) oldest whole sessions (\(drop.lines) lines)")
            }
            group.removeAll(keepingCapacity: true)
            groupBytes = 0
            continuation.yield(.queued)
        }
        while let event = try reader.next() {
            switch event {
            case .line(let bytes, let number):
                read = number
                guard number > done, bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                let session: SessionID
                do throws(SessionIDError) {
                    session = try OpDecoder.sessionHint(bytes)?.session.map(SessionID.init(_:)) ?? defaultSession
                } catch {
                    sender.count { $0.refused += 1 }
                    StandardStream.error.writeLine("focal send: line \(number) of \(source): the session id \(error); not sent")
                    continue
                }
                group.append(QueuedLine(session: session, bytes: Array(bytes)))
                groupBytes += bytes.count
                if group.count >= Self.groupLines || groupBytes >= Self.groupBytes { try commit() }
            case .oversized(let number, let byteCount):
                read = number
                if number > done {
                    sender.count { $0.refused += 1 }
                    StandardStream.error.writeLine(
                        "focal send: line \(number) of \(source): \(byteCount) bytes, over the op log's line limit; not sent")
                }
            case .pause:
                try commit()
            }
        }
        try commit()
    }
}

enum InputError: Error, CustomStringConvertible {
    case cannotOpen(String)

    var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open it: \(reason)"
        }
    }
}
