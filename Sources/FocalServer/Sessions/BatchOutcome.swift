import FocalEngine
import FocalJSON
import NIOCore

/// What `POST /v1/sessions/{id}/ops` answers: how many lines were applied and skipped, the
/// errors by line of the request body, and the results in order.
struct BatchOutcome: Sendable {
    /// Lines applied now.
    var applied = 0
    /// Leading lines the session already held at their position (a retried batch).
    var skipped = 0
    /// Errors, with the line of the request body (1-based) they belong to and their kind's
    /// ``FocalEngine/EngineError/Kind/code``: the first thousand (``FocalEngine/ApplyOutcome/maximumErrors``).
    var errors: [(line: Int?, code: String, message: String)] = []
    /// How many more errors the batch had; answered as `errorsOmitted` when not zero.
    var omittedErrors = 0
    /// The results, in order; answered as their compact JSON text (`record.resultJSON`).
    var results: [TaskResult] = []

    /// `{"applied": N, "skipped": K, "errors": [{"line": L, "code": "…", "message": "…"}], "results": [VALUE, …]}`
    /// and a newline, written straight into the response's buffer in one write: its length is
    /// bounded first, then every piece is copied into the buffer's memory (a `ByteBuffer`
    /// write per piece costs more than the copy for pieces this short).
    var json: ByteBuffer {
        let messages = errors.map { JSONValue.string($0.message).jsonString }
        var bound = 128 + 3 * AnswerText.digitsBound
        for (error, message) in zip(errors, messages) { bound += 40 + AnswerText.digitsBound + error.code.utf8.count + message.utf8.count }
        // Each result read in place: a `for … in` over the results would copy every one (all its fields).
        results.withUnsafeBufferPointer { results in
            for index in results.indices { bound += results[index].record.resultJSON.utf8.count + 1 }
        }
        var buffer = ByteBufferAllocator().buffer(capacity: bound)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { memory in
            var answer = AnswerText(memory)
            answer.append("{\"applied\":")
            answer.append(applied)
            answer.append(",\"skipped\":")
            answer.append(skipped)
            answer.append(",\"errors\":[")
            for (index, (error, message)) in zip(errors, messages).enumerated() {
                if index > 0 { answer.append(",") }
                answer.append("{\"line\":")
                if let line = error.line { answer.append(line) } else { answer.append("null") }
                answer.append(",\"code\":\"")
                answer.append(error.code)
                answer.append("\",\"message\":")
                answer.append(message)
                answer.append("}")
            }
            answer.append("]")
            if omittedErrors > 0 {
                answer.append(",\"errorsOmitted\":")
                answer.append(omittedErrors)
            }
            answer.append(",\"results\":[")
            results.withUnsafeBufferPointer { results in
                for index in results.indices {
                    if index > 0 { answer.append(",") }
                    answer.append(results[index].record.resultJSON)
                }
            }
            answer.append("]}\n")
            return answer.count
        }
        return buffer
    }
}

extension BatchOutcome {
    /// The outcome of applying a batch's lines past its first `skipped`: the engine's `outcome`, its
    /// errors' lines counted from the batch's first line.
    init(_ outcome: ApplyOutcome, skipped: Int) {
        self.init(
            applied: outcome.applied, skipped: skipped,
            errors: outcome.errors.map { error in (error.line.map { $0 + skipped }, error.kind.code, error.message) },
            omittedErrors: outcome.omittedErrors, results: outcome.results)
    }
}

/// Appends text to memory known to be large enough (``BatchOutcome/json``'s bound).
private struct AnswerText {
    /// The most bytes a decimal `Int` takes.
    static let digitsBound = 20

    private let memory: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(_ memory: UnsafeMutableRawBufferPointer) {
        self.memory = memory
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// `text`'s bytes, read in place when they are contiguous (a native string's always are), else copied first.
    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            var text = text
            text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// A whole number in decimal.
    mutating func append(_ number: Int) {
        guard number >= 0 else { return append(String(number)) }
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var value = number
        for offset in stride(from: count + digits - 1, through: count, by: -1) {
            memory[offset] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        count += digits
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= memory.count - count, "the answer's bound is too small")
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (memory.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }
}
