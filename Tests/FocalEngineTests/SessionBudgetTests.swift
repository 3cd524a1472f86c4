import FocalCore
import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// A session's memory budget (`EngineConfiguration.maxSessionBytes`): an op that would take a session past it is
/// reported and not applied, and the count the budget is checked against follows what the session holds.
@Suite("Session memory budget")
struct SessionBudgetTests {
    /// A task that answers every event of the root and of its rows, several results at a time (so that results are
    /// kept with the events, and some counted past the four kept).
    static let tasks = [
        "index.js": """
        match('ev', n => n.nodeName);
        match('row/ana-updated', n => results([1, 2, 3, 4, 5, 'a result long enough to be kept on the heap']));
        match('row/ev', n => n.latestValue('title'));
        match('/ana-session-ended', n => 'ended');
        """
    ]

    /// `count` bytes of filler, for a property.
    static func filler(_ count: Int) -> String { String(repeating: "x", count: count) }

    @Test("an op past the budget is refused with an error naming the limit; the session goes on within it")
    func refusal() throws {
        let harness = try EngineHarness(Self.tasks) { $0.maxSessionBytes = 64 << 10 }
        let engine = harness.engine
        harness.apply(lines: #"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#)
        // Events of 10 KB: the history of the root holds six or so before the session passes 64 KiB.
        for _ in 0..<10 {
            harness.apply(lines: #"{"op":"record","session":"s","node":1,"event":"ev","properties":{"pad":"\#(Self.filler(10_000))"}}"#)
        }
        let accepted = harness.takeResults().count
        let errors = harness.takeErrors()
        #expect((1..<10).contains(accepted), "some events fit, not all")
        #expect(errors.count == 10 - accepted)
        #expect(errors.map(\.line) == Array((2 + accepted)...11), "each refused line is reported with its number")
        #expect(errors.allSatisfy { $0.kind == .overMemoryBudget && $0.session?.rawValue == "s" })
        #expect(
            errors.first?.message.hasPrefix("cannot record 'ev' on node 1: the session would pass its memory budget of 65536 bytes")
                == true,
            "\(errors)")
        #expect(errors.first?.message.contains("--max-session-bytes") == true)
        let held = try #require(engine.heldBytes(ofSession: "s"))
        #expect(held <= 64 << 10, "a refused op adds nothing")

        // A node too big to fit is refused too; small ops still fit, and what a deregister frees is room again.
        harness.apply(
            lines: #"{"op":"register","session":"s","node":2,"parent":1,"name":"row","attributes":{"pad":"\#(Self.filler(70_000))"}}"#)
        #expect(harness.takeErrors().map(\.message).first?.hasPrefix("cannot register node 2 ('row'): the session would pass") == true)
        harness.apply(
            lines: #"{"op":"register","session":"s","node":3,"parent":1,"name":"row"}"#,
            #"{"op":"record","session":"s","node":3,"event":"ev"}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults() == ["row"])
        #expect(engine.heldBytes(ofSession: "s")! > held)
        harness.apply(lines: #"{"op":"record","session":"s","node":3,"event":"ev","properties":{"pad":"\#(Self.filler(30_000))"}}"#)
        #expect(harness.takeErrors().count == 1, "no room for 30 KB")
        harness.apply(
            lines: #"{"op":"deregister","session":"s","node":1}"#,
            #"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#,
            #"{"op":"register","session":"s","node":3,"parent":1,"name":"row"}"#,
            #"{"op":"record","session":"s","node":3,"event":"ev","properties":{"pad":"\#(Self.filler(30_000))"}}"#)
        #expect(harness.takeErrors().isEmpty, "the deregistered root's history made room")
        #expect(harness.takeResults() == ["row"])
    }

    @Test("a session at its budget still records its end, which its tasks see")
    func endAtBudget() throws {
        let harness = try EngineHarness(Self.tasks) { $0.maxSessionBytes = 64 << 10 }
        harness.apply(lines: #"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#)
        for _ in 0..<8 {
            harness.apply(lines: #"{"op":"record","session":"s","node":1,"event":"ev","properties":{"pad":"\#(Self.filler(10_000))"}}"#)
        }
        #expect(!harness.takeErrors().isEmpty, "the budget is reached")
        _ = harness.takeResults()
        harness.apply(lines: #"{"op":"end","session":"s"}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(harness.takeResults() == ["ended"])
    }

    @Test("a value past the budget is refused and the node keeps the one it had")
    func value() throws {
        let harness = try EngineHarness(Self.tasks) { $0.maxSessionBytes = 64 << 10 }
        harness.apply(
            lines: #"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#,
            #"{"op":"register","session":"s","node":2,"parent":1,"name":"row"}"#,
            #"{"op":"record","session":"s","node":2,"event":"ana-updated","properties":{"key-path":"title","value":"kept"}}"#)
        _ = harness.takeResults()
        // An array of small numbers holds much more than its text: a JSON value per element.
        let numbers = Array(repeating: "1", count: 8_000).joined(separator: ",")
        harness.apply(
            lines: #"{"op":"record","session":"s","node":2,"event":"ana-updated","properties":{"key-path":"title","value":[\#(numbers)]}}"#,
            #"{"op":"record","session":"s","node":2,"event":"ev"}"#)
        #expect(harness.takeErrors().map(\.line) == [4])
        #expect(harness.takeResults() == ["row", "kept"], "the refused update changed nothing")
    }

    @Test("the count returns to where it was once what was added is deregistered, and goes with the session")
    func noDrift() throws {
        let harness = try EngineHarness(Self.tasks)
        let engine = harness.engine
        func line(_ text: String) { harness.apply(lines: text) }
        line(#"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#)
        line(#"{"op":"register","session":"s","node":2,"parent":1,"name":"table"}"#)
        let start = try #require(engine.heldBytes(ofSession: "s"))
        #expect(start > 0)
        let long = Self.filler(40)
        for row in 0..<40 {
            let id = #"[70,"section","\#(row)"]"#
            line(
                #"{"op":"register","session":"s","node":\#(id),"parent":2,"name":"row","index":\#(row),"attributes":{"a":[1,{"b":"\#(long)"}]}}"#
            )
            line(#"{"op":"record","session":"s","node":\#(id),"event":"ana-updated","properties":{"key-path":"title","value":"t\#(row)"}}"#)
            line(
                #"{"op":"record","session":"s","node":\#(id),"event":"ana-updated","properties":{"key-path":"list","value":[1,"\#(long)",{"k":null}]}}"#
            )
            line(#"{"op":"record","session":"s","node":\#(id),"event":"ana-appeared","properties":{"why":"\#(long)"}}"#)
            line(
                #"{"op":"record","session":"s","node":\#(id),"event":"ana-updated","properties":{"key-path":"\#(long)","value":{"nested":["\#(long)"]}}}"#
            )
            line(#"{"op":"record","session":"s","node":\#(id),"event":"ana-updated","properties":{"key-path":"title","value":"\#(long)"}}"#)
            line(#"{"op":"record","session":"s","node":\#(id),"event":"ana-updated","properties":{"key-path":"list","value":null}}"#)
            line(#"{"op":"record","session":"s","node":\#(id),"event":"ana-disappeared"}"#)
            // Past ten events the history overwrites its oldest, with their results.
            for _ in 0..<(row % 12) {
                line(#"{"op":"record","session":"s","node":\#(id),"event":"ev","properties":{"p":"\#(long)"}}"#)
            }
            // Registered again with other attributes, then moved under the root with a longer name, and back.
            line(#"{"op":"register","session":"s","node":\#(id),"parent":2,"name":"row","attributes":{"c":"\#(long)"}}"#)
            line(#"{"op":"register","session":"s","node":\#(id),"parent":1,"name":"a row with a long name"}"#)
            line(#"{"op":"register","session":"s","node":\#(id),"parent":2,"name":"row"}"#)
        }
        line(#"{"op":"register","session":"s","node":[70,"section","0","detail"],"parent":[70,"section","0"],"name":"detail"}"#)
        line(#"{"op":"record","session":"s","node":[70,"section","0","detail"],"event":"ev"}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(!harness.takeResults().isEmpty)
        let full = try #require(engine.heldBytes(ofSession: "s"))
        #expect(full > start + 40 * 1000, "the rows, their values, histories and kept results are counted")

        line(#"{"op":"deregister","session":"s","node":[70,"section"]}"#)
        #expect(harness.takeErrors().isEmpty)
        #expect(engine.heldBytes(ofSession: "s") == start)
        line(#"{"op":"end","session":"s"}"#)
        #expect(engine.heldBytes(ofSession: "s") == nil)
        #expect(engine.heldBytes(ofSession: nil) == 0, "the default session holds nothing")
    }
}
