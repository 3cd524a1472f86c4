import FocalCore
import FocalDelivery
import FocalEngine
import FocalTestSupport
import Foundation
import Testing

/// One result type from the engine to the outbox: the record of what `EngineSession.apply`
/// returns is appended to an outbox as it is, with no conversion, and comes back out equal.
@Suite struct ResultToOutboxTests {
    @Test("a session's result records are appended to an outbox as they are and read back equal")
    func recordsGoToTheOutboxAsTheyAre() async throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-tasks-", files: ["index.js": "match('list/cell/tap', n => ({ row: n.index, tag: 'x' }));"])
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 1)
        let session = try pool.session("user-42")
        let outcome = try await session.apply([
            registerRoot, register(2, under: root, "list"), register(keyed(7, "0"), under: 2, "cell", index: 0),
            register(keyed(7, "1"), under: 2, "cell", index: 1),
            record(keyed(7, "1"), "tap", time: 4242), record(keyed(7, "0"), "tap", time: 4243),
        ])
        await pool.close()
        let records = outcome.results.map(\.record)
        #expect(
            records == [
                ResultRecord(resultJSON: #"{"row":1,"tag":"x"}"#, event: "tap", path: "/list/cell", time: 4242, session: "user-42"),
                ResultRecord(resultJSON: #"{"row":0,"tag":"x"}"#, event: "tap", path: "/list/cell", time: 4243, session: "user-42"),
            ])

        let storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("focal-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storeDirectory) }
        let outbox = try SQLiteOutbox(path: storeDirectory.appendingPathComponent("outbox.sqlite").path)
        _ = try await outbox.append(records)
        let stored = try await outbox.nextBatch(for: "collector", limits: BatchLimits(maxCount: 10))
        #expect(stored.map(\.result) == records)
        withExtendedLifetime(directory) {}
    }
}
