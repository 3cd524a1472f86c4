import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

@Suite("EnginePool")
struct EnginePoolTests {
    /// A task with top-level state, so a session that saw another's events would count them.
    static let tasks = [
        "index.js":
            "let count = 0;\nmatch('row/ev', n => ({ row: n.index, count: ++count }));\nmatch('/fail', () => { throw new Error('no'); });"
    ]

    /// A session: a list of `rows` rows, an event on each, one failing event, then each row again.
    static func session(rows: Int) -> [Op] {
        var ops = [registerRoot, register(2, under: root, "list")]
        ops += (0..<rows).map { register(keyed(3, String($0)), under: 2, "row", index: $0, time: 10) }
        ops += (0..<rows).map { record(keyed(3, String($0)), "ev", time: 20) }
        ops.append(record(root, "fail", time: 30))
        ops += (0..<rows).map { record(keyed(3, String($0)), "ev", time: 40) }
        return ops
    }

    static func expectedResults(rows: Int) -> [JSONValue] {
        (0..<2 * rows).map { ["row": .number(Double($0 % rows)), "count": .number(Double($0 + 1))] }
    }

    static func withPool<R>(threads: Int = 2, _ body: (EnginePool) async throws -> R) async throws -> R {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: tasks)
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: threads)
        let result = try await body(pool)
        await pool.close()
        withExtendedLifetime(directory) {}
        return result
    }

    @Test("apply returns results and errors in order, and outputs() streams the same")
    func outcomeAndOutputs() async throws {
        try await Self.withPool { pool in
            let session = try pool.session("a")
            let outputs = session.outputs()
            let outcome = try await session.apply(Self.session(rows: 50))
            await session.close()
            var streamed: [JSONValue] = []
            var errorPosition: Int?
            for await output in outputs {
                switch output {
                case .result(let result): streamed.append(result.value)
                case .error: errorPosition = streamed.count
                }
            }
            let expected = Self.expectedResults(rows: 50)
            #expect(outcome.results.map(\.value) == expected)
            #expect(outcome.results.allSatisfy { $0.record.session == "a" })
            #expect(outcome.errors.map(\.kind) == [.taskFailed])
            #expect(outcome.errors.first?.session?.rawValue == "a")
            #expect(outcome.applied == Self.session(rows: 50).count)
            #expect(!outcome.isCancelled)
            #expect(streamed == expected)
            #expect(errorPosition == 50)
        }
    }

    @Test("apply(opLog:) decodes lines, reports bad ones with their numbers and applies the rest")
    func opLogText() async throws {
        try await Self.withPool { pool in
            let session = try pool.session("text")
            let lines = Self.session(rows: 2).map(\.jsonLine)
            let foreign = OpLogEntry(session: "other", record(root, "x")).jsonLine
            let text = (lines[0..<3] + ["garbage", "", foreign] + lines[3...]).joined(separator: "\n")
            let outcome = try await session.apply(opLog: Array(text.utf8))
            #expect(outcome.results.map(\.value) == Self.expectedResults(rows: 2))
            #expect(outcome.errors.map(\.line) == [4, 6, 10])
            #expect(outcome.errors.map(\.kind) == [.malformedOp, .malformedOp, .taskFailed])
            #expect(outcome.errors[1].message.contains("'other'"))
        }
    }

    @Test("apply(opLog:) ends the last line at a final newline: a blank line before it counts as a line, the newline does not")
    func opLogFinalNewline() async throws {
        try await Self.withPool { pool in
            let lines = Self.session(rows: 2).map(\.jsonLine)
            let text = lines.joined(separator: "\n")
            let plain = try await pool.session("plain").apply(opLog: Array(text.utf8))
            let ended = try await pool.session("ended").apply(opLog: Array((text + "\n").utf8))
            #expect(ended.applied == lines.count)
            #expect(ended.errors.map(\.line) == plain.errors.map(\.line))
            #expect(ended.results.map(\.value) == Self.expectedResults(rows: 2))
            let blank = try await pool.session("blank").apply(opLog: Array((text + "\n\n").utf8))
            #expect(blank.applied == lines.count + 1)
            #expect(blank.errors.map(\.line) == plain.errors.map(\.line), "a blank line is skipped, as in focal replay")
            let empty = try await pool.session("empty").apply(opLog: [])
            #expect(empty.applied == 0 && empty.errors.isEmpty)
        }
    }

    @Test("an outcome keeps the first thousand errors and counts the rest; the stream and the results get everything")
    func errorCap() async throws {
        try await Self.withPool { pool in
            let session = try pool.session("noisy")
            let stream = session.outputs(bufferingLimit: 5000)
            let lines = Array(repeating: "garbage", count: 2500) + Self.session(rows: 2).map(\.jsonLine)
            let outcome = try await session.apply(opLog: Array(lines.joined(separator: "\n").utf8))
            #expect(outcome.errors.count == ApplyOutcome.maximumErrors)
            #expect(outcome.errors.first?.line == 1 && outcome.errors.last?.line == 1000)
            #expect(outcome.omittedErrors == 1501, "1,500 more bad lines and the failing task")
            #expect(outcome.results.map(\.value) == Self.expectedResults(rows: 2))
            await session.close()
            var streamed = 0
            for await output in stream { if case .error = output { streamed += 1 } }
            #expect(streamed == 2501)
        }
    }

    @Test("a session's snapshot is its own tree; a session without state has none")
    func snapshots() async throws {
        try await Self.withPool { pool in
            let a = try pool.session("a")
            _ = try await a.apply(Self.session(rows: 3))
            let snapshot = try JSONValue(parsing: try #require(await a.snapshot(format: .json)))
            #expect(snapshot.snapshotNodes.count == 5)
            #expect(try await pool.session("b").snapshot() == nil)
        }
    }

    @Test("a SessionID and the same id as a string name one session")
    func checkedAndUncheckedIDs() async throws {
        try await Self.withPool { pool in
            let id: SessionID = "user-42"
            let session = try pool.session(id)
            #expect(try pool.session("user-42") === session)
            #expect(pool.existingSession(id) === session)
            #expect(pool.existingSession("user-42") === session)
            #expect(pool.existingSession("user-43" as SessionID) == nil)
            #expect(pool.existingSession("") == nil)
        }
    }

    @Test("a missing tasks directory is an error at creation")
    func missingDirectory() async {
        await #expect(throws: EngineError.self) {
            try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "/nonexistent/focal/tasks"), threads: 1)
        }
    }

    @Test("many sessions in parallel, interleaved, each get exactly the results of its ops replayed alone")
    func manySessionsInParallel() async throws {
        let rows = 20
        try await Self.withPool { pool in
            let outcomes = try await withThrowingTaskGroup(of: (String, [JSONValue], Int).self) { group in
                for n in 0..<60 {
                    group.addTask {
                        let session = try pool.session("s\(n)")
                        var results: [JSONValue] = []
                        var errors = 0
                        // Small batches, so sessions of one thread interleave.
                        let ops = Self.session(rows: rows)
                        for start in stride(from: 0, to: ops.count, by: 7) {
                            let outcome = try await session.apply(Array(ops[start..<min(start + 7, ops.count)]))
                            results += outcome.results.map(\.value)
                            errors += outcome.errors.count
                        }
                        return ("s\(n)", results, errors)
                    }
                }
                var all: [(String, [JSONValue], Int)] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.count == 60)
            #expect(pool.sessionCount == 60)
            for (_, results, errors) in outcomes {
                #expect(results == Self.expectedResults(rows: rows))
                #expect(errors == 1)
            }
        }
    }

    @Test("a cancelled caller stops its batch between ops and the outcome says so")
    func cancellation() async throws {
        try await Self.withPool(threads: 1) { pool in
            let session = try pool.session("c")
            let outcome = try await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await session.apply(Self.session(rows: 400))
            }.value
            #expect(outcome.isCancelled)
            #expect(outcome.applied < Self.session(rows: 400).count)
            #expect(outcome.results.count < 800)
            // The session goes on with the next batch.
            let next = try await session.apply([record(root, "nothing")])
            #expect(!next.isCancelled)
        }
    }

    @Test("close ends streams, refuses calls, and the same id then starts afresh")
    func closing() async throws {
        try await Self.withPool { pool in
            let first = try pool.session("x")
            _ = try await first.apply(Self.session(rows: 2))
            let stream = first.outputs()
            await first.close()
            #expect(first.isClosed)
            var streamed = 0
            for await _ in stream { streamed += 1 }
            #expect(streamed == 0)
            await #expect(throws: EnginePoolError.closed) { try await first.apply([registerRoot]) }
            let second = try pool.session("x")
            #expect(second !== first)
            let outcome = try await second.apply(Self.session(rows: 2))
            #expect(outcome.results.map(\.value) == Self.expectedResults(rows: 2))
        }
    }

    @Test("after the pool closes, sessions refuse work and no new session is handed out")
    func closingThePool() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: Self.tasks)
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 1)
        let session = try pool.session("y")
        _ = try await session.apply([registerRoot])
        await pool.close()
        #expect(throws: EnginePoolError.closed) { try pool.session("z") }
        await #expect(throws: EnginePoolError.closed) { try await session.apply([registerRoot]) }
        #expect(pool.sessionCount == 0)
    }

    @Test("a slow consumer's stream keeps the oldest outputs up to its limit and counts the rest; the outcome has all")
    func slowConsumer() async throws {
        try await Self.withPool { pool in
            let session = try pool.session("slow")
            let stream = session.outputs(bufferingLimit: 4)
            let outcome = try await session.apply(Self.session(rows: 10))
            await session.close()
            var streamed: [EngineOutput] = []
            for await output in stream { streamed.append(output) }
            #expect(outcome.results.count == 20)
            #expect(streamed.count == 4)
            #expect(session.droppedOutputs == 21 - 4)
        }
    }

    @Test("session ids are checked: empty or over the limit is refused")
    func sessionIDs() async throws {
        try await Self.withPool(threads: 1) { pool in
            #expect(throws: EnginePoolError.self) { try pool.session("") }
            #expect(throws: EnginePoolError.self) { try pool.session(String(repeating: "x", count: SessionID.maxLength + 1)) }
            let longest = try pool.session(String(repeating: "x", count: SessionID.maxLength))
            #expect(longest.id.utf8.count == SessionID.maxLength)
        }
    }
}
