import FocalEngine
import FocalJSON

/// Prints each result as one JSON line on standard output: the result itself, or
/// `{"session": ID, "result": VALUE}` for a result of a named session.
package final class StandardOutputSink: ResultSink {
    private let stream: StandardStream

    package init(stream: StandardStream = .output) {
        self.stream = stream
    }

    package var needsCommit: Bool { false }

    package func add(_ result: TaskResult) {
        let record = result.record
        guard let session = record.session else { return stream.writeLine(record.resultJSON) }
        // Written into the stream's buffer piece by piece: the line built as a string (four appends, each growing
        // it, and the session's JSON text) cost ~5,000 instructions per result, on the engine's thread.
        stream.writeLine { line in
            line.append(contentsOf: #"{"session":"#.utf8)
            JSONWriter.appendString(session, to: &line)
            line.append(contentsOf: #","result":"#.utf8)
            line.append(contentsOf: record.resultJSON.utf8)
            line.append(UInt8(ascii: "}"))
        }
    }

    package func commit() async throws {
        stream.flush()
    }

    package func finish() async -> Bool {
        stream.flush()
        return false
    }
}
