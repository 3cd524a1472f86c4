import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// The same op log gives the same results: inside tasks `Date` is the op's time and `Math.random()` is seeded by
/// the session's id.
@Suite("Replayable Date and Math.random")
struct ReplayableBuiltinsTests {
    @Test("Date.now(), new Date() and Date() in a task are the event's time; at a file's top level, the registering op's")
    func dateIsTheOpsTime() throws {
        let harness = try EngineHarness([
            "index.js": """
            const loadedAt = Date.now();
            class Stamp extends Date {}
            match('ev', n => {
              const time = n.latestEvent().time;
              return [Date.now(), new Date().getTime(), Date() === new Date(time).toString(), new Stamp().getTime(),
                new Date() instanceof Date, new Date(5).getTime(), loadedAt];
            });
            """
        ])
        harness.apply(register(root, under: nil, "__root__", time: 500))
        #expect(
            harness.fire(root, time: 1_732_200_000_003) == [[1_732_200_000_003, 1_732_200_000_003, true, 1_732_200_000_003, true, 5, 500]])
        #expect(harness.fire(root, time: 7) == [[7, 7, true, 7, true, 5, 500]])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("an op without a time gives Date the engine's clock, as it gives the event")
    func opWithoutTime() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => [Date.now(), n.latestEvent().time]);"], clock: .fixed(42))
        harness.apply(lines: #"{"op":"register","node":1,"parent":null,"name":"__root__"}"#, #"{"op":"record","node":1,"event":"ev"}"#)
        #expect(harness.takeResults() == [[42, 42]])
    }

    @Test("Math.random() is seeded by the session's id: the same draws whatever else the engine runs, others for another id")
    func randomPerSession() throws {
        let tasks = [
            "index.js": """
            const first = Math.random();
            match('ev', () => [first, Math.random(), Math.random()]);
            """
        ]
        func lines(_ session: String) -> [String] {
            [
                #"{"op":"register","node":1,"parent":null,"name":"__root__","time":1,"session":"\#(session)"}"#,
                #"{"op":"record","node":1,"event":"ev","time":2,"session":"\#(session)"}"#,
                #"{"op":"record","node":1,"event":"ev","time":3,"session":"\#(session)"}"#,
            ]
        }
        func draws(_ harness: EngineHarness, _ session: String) -> [JSONValue] {
            harness.observer.results.filter { $0.record.session == session }.map(\.value)
        }
        let alone = try EngineHarness(tasks)
        for line in lines("user-1") { alone.apply(lines: line) }
        let mixed = try EngineHarness(tasks)
        for (other, own) in zip(lines("user-2"), lines("user-1")) {
            mixed.apply(lines: other)
            mixed.apply(lines: own)
        }
        let own = draws(alone, "user-1")
        #expect(own.count == 2)
        #expect(own == draws(mixed, "user-1"))
        #expect(draws(mixed, "user-2").count == 2 && draws(mixed, "user-2") != own)
        let numbers = own.flatMap { $0.arrayValue ?? [] }.compactMap(\.numberValue)
        #expect(numbers.count == 6 && numbers.allSatisfy { (0..<1).contains($0) } && Set(numbers.dropFirst(3)).count == 3, "\(numbers)")
        // The top-level draw is the session's first: the same at both events.
        #expect(numbers[0] == numbers[3])
    }
}
