import FocalClient
import FocalCore
import FocalTestSupport
import Foundation
import Testing

@Suite("OpQueue: durable lines per session, positions, the byte limit and continuations")
struct OpQueueTests {
    static func line(_ text: String, _ session: String) throws -> QueuedLine {
        QueuedLine(session: try SessionID(session), bytes: Array(text.utf8))
    }

    @Test("past the byte limit the oldest whole sessions are dropped, counted, and later lines of theirs too")
    func byteLimitDropsOldestSessions() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let filler = String(repeating: "x", count: 90)
        let queue = try OpQueue(directory: directory.path, byteLimit: 500)
        // Three sessions of two 100-byte lines: 600 bytes, so the oldest (a) goes.
        let lines = try ["a", "b", "c"].flatMap { session in
            try (0..<2).map { _ in try Self.line(#"{"x":"\#(filler)"}"#.padding(toLength: 100, withPad: " ", startingAt: 0), session) }
        }
        let drop = try await queue.append(lines)
        #expect(drop == QueueDrop(sessions: 1, lines: 2))
        #expect(try await queue.sessionsWithLines().map(\.rawValue) == ["b", "c"])
        #expect(try await queue.held() == (lines: 4, bytes: 400))
        // A line of a dropped session would leave a gap in it: dropped as well.
        #expect(try await queue.append([try Self.line("{}", "a")]) == QueueDrop(sessions: 0, lines: 1))
        #expect(try await queue.sessionsWithLines().map(\.rawValue) == ["b", "c"])
    }

    @Test("one queue per directory: a second fails naming the directory until the first is gone")
    func secondQueueOnHeldDirectoryFails() throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        var first: OpQueue? = try OpQueue(directory: directory.path)
        #expect(first != nil)
        #expect {
            try OpQueue(directory: directory.path)
        } throws: { error in
            "\(error)".contains("another sender holds the queue '\(directory.path)'")
        }
        first = nil
        _ = try OpQueue(directory: directory.path)
    }

    @Test("acknowledging removes the lines and advances the position together, and both survive reopening the queue")
    func acknowledgeAdvancesPosition() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        do {
            let queue = try OpQueue(directory: directory.path)
            try await queue.append((0..<5).map { try Self.line(#"{"n":\#($0)}"#, "s") })
            let batch = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 3, maxBytes: 1 << 20))
            #expect(batch.position == 0 && batch.lines.count == 3 && batch.wireSession.rawValue == "s")
            try await queue.acknowledge(batch, lines: 2)
        }
        let reopened = try OpQueue(directory: directory.path)
        let next = try #require(try await reopened.nextBatch(of: SessionID("s"), maxLines: 10, maxBytes: 1 << 20))
        #expect(next.position == 2)
        #expect(next.lines.map { String(decoding: $0, as: UTF8.self) } == [#"{"n":2}"#, #"{"n":3}"#, #"{"n":4}"#])
    }

    @Test("a continued session gets the next id at position 0 and first registers the nodes its acknowledged lines left live")
    func continuationRegistersLiveTree() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let queue = try OpQueue(directory: directory.path)
        try await queue.append(
            [
                #"{"op":"register","node":1,"parent":null,"name":"root","session":"s"}"#,
                #"{"op":"register","node":2,"parent":1,"name":"list","session":"s"}"#,
                #"{"op":"register","node":3,"parent":2,"name":"row","session":"s"}"#,
                #"{"op":"register","node":[4,"a"],"parent":1,"name":"cell","session":"s"}"#,
                #"{"op":"deregister","node":2,"session":"s"}"#,
                #"{"op":"record","node":[4,"a"],"event":"tap","session":"s"}"#,
            ].map { try Self.line($0, "s") })
        let sent = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 5, maxBytes: 1 << 20))
        try await queue.acknowledge(sent, lines: 5)
        #expect(try await queue.continueSession(SessionID("s")).rawValue == "s~2")
        let batch = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 10, maxBytes: 1 << 20))
        #expect(batch.wireSession.rawValue == "s~2" && batch.position == 0)
        #expect(
            batch.lines.map { String(decoding: $0, as: UTF8.self) } == [
                #"{"op":"register","node":1,"parent":null,"name":"root"}"#,
                #"{"op":"register","node":[4,"a"],"parent":1,"name":"cell"}"#,
                #"{"op":"record","node":[4,"a"],"event":"tap","session":"s"}"#,
            ])
    }

    @Test("a continued 256-byte id stays within the server's 256 bytes: a prefix and a hash of the id, the same each time, distinct per id")
    func continuationOfLongestIDFits() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let queue = try OpQueue(directory: directory.path)
        let ids = [String(repeating: "a", count: 255) + "x", String(repeating: "a", count: 255) + "y"]
        try await queue.append(ids.map { try Self.line(#"{"op":"record","node":1,"event":"tap"}"#, $0) })
        var continued: [(second: String, third: String)] = []
        for id in try ids.map(SessionID.init(_:)) {
            let second = try await queue.continueSession(id)
            let third = try await queue.continueSession(id)
            #expect(try await queue.nextBatch(of: id, maxLines: 1, maxBytes: 1 << 20)?.wireSession == third)
            continued.append((second.rawValue, third.rawValue))
        }
        for (second, third) in continued {
            #expect(second.utf8.count <= 256 && third.utf8.count <= 256, "\(second) \(third)")
            #expect(second.hasPrefix(String(repeating: "a", count: 200)) && second.hasSuffix("~2") && third.hasSuffix("~3"))
            #expect(second.dropLast(2) == third.dropLast(2))
        }
        #expect(continued[0].second != continued[1].second)
        #expect(Set(continued.flatMap { [$0.second, $0.third] }).count == 4)
    }

    @Test("an acknowledged end (naming its session or not) forgets the session: lines queued later under its id start again at position 0")
    func endForgetsSession() async throws {
        let directory = try TemporaryDirectory(prefix: "focal-client-")
        let queue = try OpQueue(directory: directory.path)
        try await queue.append(
            [#"{"op":"register","node":1,"parent":null,"name":"root","session":"s"}"#, #"{"op":"end"}"#].map {
                try Self.line($0, "s")
            })
        let first = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 1, maxBytes: 1 << 20))
        try await queue.acknowledge(first, lines: 1)
        #expect(try await queue.continueSession(SessionID("s")).rawValue == "s~2")
        let end = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 10, maxBytes: 1 << 20))
        #expect(end.wireSession.rawValue == "s~2" && end.lines.count == 2)
        try await queue.acknowledge(end, lines: 2)
        try await queue.append([try Self.line(#"{"op":"register","node":1,"parent":null,"name":"root","session":"s"}"#, "s")])
        let again = try #require(try await queue.nextBatch(of: SessionID("s"), maxLines: 10, maxBytes: 1 << 20))
        #expect(again.wireSession.rawValue == "s" && again.position == 0 && again.lines.count == 1)
    }
}
