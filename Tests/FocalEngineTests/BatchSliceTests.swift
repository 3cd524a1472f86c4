import FocalEngine
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Testing

/// A pool session's batch shares its engine's thread (issue 53: two snapshot ops of one session held it 13 s).
@Suite("A batch in slices, snapshot ops refused and cancelled snapshots in a pool session")
struct BatchSliceTests {
    static func withPool<R>(
        _ files: [String: String], timeLimit: Duration = .seconds(1), console: LogCapture = LogCapture(),
        _ body: (EnginePool) async throws -> R
    ) async throws -> R {
        let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: files)
        let configuration = EngineConfiguration(
            tasksDirectory: directory.path, timeLimit: timeLimit, consoleLogger: console.logger(level: .info, label: "focal.console"))
        let pool = try await EnginePool(configuration: configuration, threads: 1)
        let result = try await body(pool)
        await pool.close()
        withExtendedLifetime(directory) {}
        return result
    }

    @Test("a snapshot op is refused in a pool session with an error of kind refusedOp; the other lines apply")
    func snapshotOpRefused() async throws {
        try await Self.withPool(["index.js": "match('/ev', () => 'seen');"]) { pool in
            let session = try pool.session("a")
            let lines = [
                #"{"op":"register","node":1,"parent":null,"name":"app","time":1}"#,
                #"{"op":"snapshot","format":"html"}"#,
                #"{"op":"record","node":1,"event":"ev","time":2}"#,
            ]
            let outcome = try await session.apply(opLog: Array(lines.joined(separator: "\n").utf8))
            #expect(outcome.applied == 3)
            #expect(outcome.results.map(\.value) == ["seen"])
            #expect(outcome.errors.map(\.kind) == [.refusedOp])
            #expect(outcome.errors.first?.line == 2)
            #expect(outcome.errors.first?.message.contains("GET /v1/sessions/{id}/snapshot") == true, "\(outcome.errors)")
            // The snapshot is read on request.
            #expect(try await session.snapshot(format: .xml)?.contains("name=\"app\"") == true)
        }
    }

    @Test("a snapshot asked for by a cancelled task stops and throws cancelled; the thread goes on with other sessions")
    func cancelledSnapshot() async throws {
        try await Self.withPool([:]) { pool in
            let big = try pool.session("big")
            var ops = [registerRoot]
            ops += (2...2000).map { register(NodeID(owner: Int64($0)), under: root, "row") }
            _ = try await big.apply(ops)
            let cancelled = Task { () async -> EnginePoolError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(EnginePoolError) {
                    _ = try await big.snapshot(format: .html)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(await cancelled.value == .cancelled)
            let other = try pool.session("other")
            let outcome = try await other.apply([registerRoot])
            #expect(outcome.applied == 1)
            #expect(try await big.snapshot(format: .json)?.contains("\"row\"") == true)
        }
    }

    @Test("a long batch leaves the thread to another session between slices; the session's next call waits for it")
    func slices() async throws {
        // Every `spin` runs to the time limit, so each op ends a slice. The console lines, written on the engine's
        // one thread as the tasks run, say in which order the two sessions' tasks ran.
        let tasks = [
            "index.js": "match('/spin', () => { console.log('spin'); for (;;) {} });\nmatch('/ping', () => { console.log('ping'); });"
        ]
        let console = LogCapture()
        try await Self.withPool(tasks, timeLimit: .milliseconds(20), console: console) { pool in
            let long = try pool.session("long")
            let outputs = long.outputs()
            let rounds = 12
            var ops = [registerRoot]
            for round in 0..<rounds {
                ops.append(register(NodeID(owner: Int64(round + 2)), under: root, "child"))
                ops.append(record(root, "spin"))
            }
            let batch = Task { [ops] in try await long.apply(ops) }
            // Once the batch has run its first task, another session's call and a second call of the same session.
            for await output in outputs {
                if case .error = output { break }
            }
            let snapshot = Task { try await long.snapshot(format: .json) }
            let other = try await pool.session("other").apply([registerRoot, record(root, "ping")])
            #expect(other.applied == 2)
            #expect(other.errors.isEmpty)
            let outcome = try await batch.value
            #expect(outcome.applied == ops.count)
            #expect(outcome.timeouts == rounds)
            #expect(!outcome.isCancelled)
            let lines = console.logged.map(\.message).filter { $0 == "spin" || $0 == "ping" }
            #expect(lines.filter { $0 == "spin" }.count == rounds)
            let ping = try #require(lines.firstIndex(of: "ping"))
            #expect(ping < rounds, "the other session's task ran between two slices of the batch, not after it: \(lines)")
            // The session's own snapshot waited for the whole batch: every child is in it, each once.
            let text = try #require(try await snapshot.value)
            let children = try JSONValue(parsing: text)["root"]?["children"]?.arrayValue ?? []
            #expect(children.count == rounds)
        }
    }
}
