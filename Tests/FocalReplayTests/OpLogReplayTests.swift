import FocalCore
import FocalEngine
import FocalReplay
import Testing

@Suite("OpLogReplay")
struct OpLogReplayTests {
    /// Counts per session in the task's top-level state: a session that saw another's events would count them.
    static let tasks = """
        let seen = 0;
        match('list/ev', n => ({ seen: ++seen }));
        match('list/bad', n => { throw new Error('boom ' + seen); });
        """

    /// `sessions` sessions, interleaved line by line, each registering a list and recording on it; every third
    /// session ends before the log does, and one of its events throws.
    static func interleaved(sessions: Int) -> [String] {
        let each = (0..<sessions).map { n in
            let id = "user-\(n)"
            var lines = [Line.register(1, parent: nil, "__root__", session: id), Line.register(2, parent: 1, "list", session: id)]
            lines += (0..<4).map { _ in Line.record(2, "ev", session: id) }
            lines.append(Line.record(2, n == 1 ? "bad" : "ev", session: id))
            if n % 3 == 0 { lines.append(Line.end(session: id)) }
            return lines
        }
        var mixed: [String] = []
        for index in 0..<each.map(\.count).max()! {
            for lines in each where index < lines.count { mixed.append(lines[index]) }
        }
        return mixed
    }

    @Test("a log of many sessions gives the same output, in the same order, on one engine and on three")
    func sameOutputOnOneAndThreeEngines() async throws {
        let log = Self.interleaved(sessions: 40)
        let one = try ReplayFixture(tasks: Self.tasks)
        let three = try ReplayFixture(tasks: Self.tasks)
        let oneStatus = try await one.replay(try one.log(log))
        let threeStatus = try await three.replay(try three.log(log), engines: 3)
        #expect(oneStatus == .failed)  // user-1's task threw
        #expect(threeStatus == .failed)
        #expect(one.results.count == 40 * 5 - 1)
        #expect(one.results.first == #"{"session":"user-0","result":{"seen":1}}"#)
        #expect(one.results == three.results)
        #expect(one.diagnostics == three.diagnostics)
        #expect(one.diagnostics.first?.hasPrefix("error: line ") == true)
        #expect(one.diagnostics.first?.contains("boom 4") == true, "\(one.diagnostics)")
    }

    @Test("a line that is not an op is an error with its number, and the lines after it still run")
    func errorLineKeepsTheRunGoing() async throws {
        let fixture = try ReplayFixture(tasks: Self.tasks)
        let path = try fixture.log([
            Line.register(1, parent: nil, "__root__"), Line.register(2, parent: 1, "list"), Line.record(2, "ev"),
            #"{"op":"record","node":2"#, Line.record(2, "ev"),
        ])
        let status = try await fixture.replay(path)
        #expect(status == .failed)
        #expect(fixture.results == [#"{"seen":1}"#, #"{"seen":2}"#])
        #expect(fixture.diagnostics.count == 1)
        #expect(fixture.diagnostics.first?.hasPrefix("error: line 4: ") == true, "\(fixture.diagnostics)")
    }

    @Test("a clean log succeeds and writes no diagnostics")
    func cleanLogSucceeds() async throws {
        let fixture = try ReplayFixture(tasks: Self.tasks)
        let path = try fixture.log([Line.register(1, parent: nil, "__root__"), Line.register(2, parent: 1, "list"), Line.record(2, "ev")])
        #expect(try await fixture.replay(path) == .succeeded)
        #expect(fixture.results == [#"{"seen":1}"#])
        #expect(fixture.diagnostics.isEmpty)
    }

    @Test("without ending the sessions, the engine holds the tree as the log left it")
    func snapshotAtEndOfInput() async throws {
        let fixture = try ReplayFixture(tasks: Self.tasks)
        let path = try fixture.log([
            Line.register(1, parent: nil, "__root__", session: "s"), Line.register(2, parent: 1, "list", session: "s"),
            Line.register(3, parent: 2, "gone", session: "s"), #"{"op":"deregister","node":3,"session":"s"}"#,
        ])
        let threads = try EngineThreadGroup(count: 1)
        let replay = try await OpLogReplay(
            threads: threads, configuration: fixture.configuration, diagnostics: fixture.diagnosticStream, endsSessions: false)
        #expect(try await replay.replay(path: path) == .succeeded)
        let session = try SessionID("s")
        let snapshot = await replay.workers[0].run { worker in
            worker.engine.hasTree(session: session) ? worker.engine.snapshot(format: .xml, session: session) : nil
        }
        await ReplayFixture.stop(replay, threads: threads)
        let text = try #require(snapshot)
        #expect(text.contains("list"))
        #expect(!text.contains("gone"))
    }

    @Test("a log that cannot be opened is a ReplayError naming it, before anything runs")
    func missingLogThrows() async throws {
        let fixture = try ReplayFixture(tasks: Self.tasks)
        let path = fixture.directory.absolute("missing.oplog")
        await #expect {
            _ = try await fixture.replay(path)
        } throws: { error in
            (error as? ReplayError)?.description == "cannot open '\(path)': No such file or directory"
        }
        #expect(fixture.diagnostics.isEmpty)
    }

    @Test("an engine that cannot start is a ReplayError with the engine's message")
    func engineThatCannotStart() async throws {
        let fixture = try ReplayFixture(tasks: Self.tasks)
        var configuration = fixture.configuration
        configuration.maxSessions = 0
        let threads = try EngineThreadGroup(count: 1)
        defer { Task { await threads.shutdown() } }
        await #expect {
            _ = try await OpLogReplay(threads: threads, configuration: configuration)
        } throws: { error in
            guard case .engineCannotStart(let engineError)? = error as? ReplayError else { return false }
            return (error as? ReplayError)?.description == engineError.message && engineError.message.contains("maxSessions")
        }
    }
}
