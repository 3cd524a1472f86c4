import FocalClient
import FocalCore
import FocalJSON
import FocalOpLog
import FocalTestSupport
import Foundation
import Testing

@Suite("Recorder: ops checked as the engine checks them, queued off the caller's thread")
struct RecorderTests {
    @Test("the recorded lines decode as an op log whose replay builds the tree and fires the tasks the calls describe")
    func recordedLogReplays() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        _ = try directory.makeDirectory(
            "tasks", files: ["index.js": "match('cell/did-select', (n) => n.path + '#' + n.index + ':' + n.latestValue('title'));"])
        let queue = try OpQueue(directory: directory.absolute("queue"))
        let recorder = Recorder(queue: queue, session: try SessionID("u1"))
        let row: NodeID = NodeID(owner: 3, keys: ["row", "0"])
        try recorder.register(1, parent: nil, name: "__root__")
        try recorder.register(2, parent: 1, name: "list", namespace: "Shop.List")
        try recorder.register(row, parent: 2, name: "cell", index: 0)
        try recorder.update(row, keyPath: "title", value: "Apples")
        try recorder.record(row, event: "did-select")
        try recorder.register(row, parent: 2, name: "cell", index: 0)  // a reused cell: the row keeps its values
        try recorder.record(row, event: "did-select")
        try recorder.deregister(3)  // every keyed id of owner 3
        #expect(throws: RecorderError.unknownNode(row)) { try recorder.record(row, event: "did-select") }
        try recorder.close()

        let batch = try #require(try await queue.nextBatch(of: SessionID("u1"), maxLines: 100, maxBytes: 1 << 20))
        #expect(batch.lines.count == 8)
        for line in batch.lines {
            let entry = try line.withUnsafeBytes { try OpDecoder.decodeEntry($0) }
            #expect(entry?.op.isEnd == false)
        }
        let log = try directory.write("u1.oplog", Data(batch.body))
        let replay = try runFocal(["replay", "--tasks", directory.absolute("tasks"), log])
        #expect(replay.status == 0, "\(replay)")
        let result = #"{"session":"u1","result":"/list/cell#0:Apples"}"#
        #expect(replay.stdoutLines == [result, result], "\(replay)")
    }

    @Test(
        "while another process holds the queue's database, ops wait in memory up to the backlog limit; past it each throws, and once free every op that waited is queued"
    )
    func backlogWhileTheQueueIsLocked() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let queue = try OpQueue(directory: directory.absolute("queue"))
        let recorder = Recorder(queue: queue, session: try SessionID("s"))
        try recorder.register(1, parent: nil, name: "__root__")
        try recorder.register(2, parent: 1, name: "item")
        try recorder.flush()
        // Another process takes the database's write lock and keeps it until its standard input closes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); "
                + "print('locked', flush=True); sys.stdin.read()",
            directory.absolute("queue/queue.sqlite"),
        ]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer { holder.terminate() }
        #expect(String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self) == "locked\n")
        // The writer takes a first share and waits on the lock; the rest waits in memory until the limit.
        var recorded = 0
        var refusal: RecorderError?
        while refusal == nil, recorded <= 2 * Recorder.backlogLimit {
            do {
                try recorder.record(2, event: "tap", properties: ["n": .number(Double(recorded))])
                recorded += 1
            } catch {
                refusal = error
            }
        }
        guard case .backlogFull(let limit, _) = try #require(refusal) else {
            Issue.record("expected backlogFull, got \(String(describing: refusal))")
            return
        }
        #expect(limit == Recorder.backlogLimit)
        #expect((Recorder.backlogLimit...(2 * Recorder.backlogLimit)).contains(recorded))
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        try recorder.flush()
        try recorder.record(2, event: "after")
        try recorder.close()
        let held = try await queue.held()
        #expect(held.lines == 2 + recorded + 1)
    }

    @Test("an op the engine would refuse throws and queues nothing: an owned id twice, a missing parent, a second root, an unknown node")
    func refusals() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let queue = try OpQueue(directory: directory.absolute("queue"))
        let recorder = Recorder(queue: queue, session: try SessionID("s"))
        try recorder.register(1, parent: nil, name: "__root__")
        try recorder.register(2, parent: 1, name: "list")
        try recorder.register(5, parent: 2, name: "row")
        #expect(throws: RecorderError.alreadyRegistered(2)) { try recorder.register(2, parent: 1, name: "list") }
        #expect(throws: RecorderError.unknownParent(9)) { try recorder.register(4, parent: 9, name: "x") }
        #expect(throws: RecorderError.secondRoot(7)) { try recorder.register(7, parent: nil, name: "other") }
        #expect(throws: RecorderError.badName("a/b")) { try recorder.register(8, parent: 1, name: "a/b") }
        try recorder.deregister(2)  // and its subtree: row 5
        #expect(throws: RecorderError.unknownNode(5)) { try recorder.record(5, event: "tap") }
        try recorder.end()
        try recorder.register(1, parent: nil, name: "__root__")  // a new tree after the end
        try recorder.close()
        #expect(throws: RecorderError.closed) { try recorder.record(1, event: "tap") }
        let batch = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 100, maxBytes: 1 << 20))
        let ops = try batch.lines.map { line in try #require(try line.withUnsafeBytes { try OpDecoder.decodeEntry($0) }).op }
        #expect(ops.map(Self.kind) == ["register", "register", "register", "deregister", "end", "register"])
    }

    private static func kind(_ op: Op) -> String {
        switch op {
        case .register: "register"
        case .record: "record"
        case .deregister: "deregister"
        case .snapshot: "snapshot"
        case .end: "end"
        }
    }
}
