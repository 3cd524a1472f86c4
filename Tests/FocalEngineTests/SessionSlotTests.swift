import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// Sessions found by the slot their reader numbered them with (`Engine.apply(_:line:sessionSlot:)`, package API):
/// a hint that never changes what the ops do.
@Suite("Sessions found by slot")
struct SessionSlotTests {
    /// Three sessions' ops interleaved; two of them end and start again under the same ids (the second `end` of one,
    /// and a record on a node it never registered, are errors), and the default session's own.
    static let entries: [OpLogEntry] = {
        var entries: [OpLogEntry] = []
        func add(_ session: String?, _ op: Op) { entries.append(OpLogEntry(session: session, op)) }
        for session in ["a", "b", "c"] {
            add(session, registerRoot)
            add(session, register(2, under: root, "row", index: 0))
        }
        for _ in 0..<2 { for session in ["a", "b", "c"] { add(session, record(2, "ev")) } }
        add("a", .end(reason: .deleted))
        add("a", .end(reason: .deleted))
        add("b", record(9, "ev"))
        add("b", .end(reason: .deleted))
        for session in ["b", "a"] {
            add(session, registerRoot)
            add(session, register(2, under: root, "row", index: 5))
        }
        for session in ["c", "a", "b"] { add(session, record(2, "ev")) }
        add(nil, registerRoot)
        add(nil, register(2, under: root, "row", index: 7))
        add(nil, record(2, "ev"))
        return entries
    }()

    /// What `entries` produce with each entry's slot from `slot` (`nil`: the plain `apply`).
    static func outcome(_ slot: ((Int, OpLogEntry) -> Int)?) throws -> (results: [JSONValue], errors: [String]) {
        let harness = try EngineHarness(["index.js": "match('row/ev', n => n.path + '#' + n.index);"])
        for (position, entry) in entries.enumerated() {
            if let slot {
                harness.engine.apply(entry, line: position + 1, sessionSlot: slot(position, entry))
            } else {
                harness.engine.apply(entry, line: position + 1)
            }
        }
        return (harness.takeResults(), harness.takeErrors().map { "\($0.line ?? 0) \($0.message)" })
    }

    @Test("right, reused, shared, stale and out-of-range slots give what no slot gives")
    func slotsAreHints() throws {
        let plain = try Self.outcome(nil)
        #expect(plain.results == ["/row#0", "/row#0", "/row#0", "/row#0", "/row#0", "/row#0", "/row#0", "/row#5", "/row#5", "/row#7"])
        #expect(plain.errors.count == 2)
        // As a reader numbers them: one slot per live session, freed by its end and given to the next to start.
        var live: [String: Int] = [:]
        var free: [Int] = []
        let numbered = try Self.outcome { _, entry in
            guard let session = entry.session else { return -1 }
            if entry.op.isEnd {
                if let slot = live.removeValue(forKey: session) { free.append(slot) }
                return -1
            }
            if let slot = live[session] { return slot }
            let slot = free.popLast() ?? live.count
            live[session] = slot
            return slot
        }
        #expect(numbered.results == plain.results)
        #expect(numbered.errors == plain.errors)
        // Wrong hints: every session on one slot, a slot per position (never the same twice), far past the end.
        #expect(try Self.outcome { _, _ in 0 } == plain)
        #expect(try Self.outcome { position, _ in position } == plain)
        #expect(try Self.outcome { position, _ in position % 2 == 0 ? 100_000 : 3 } == plain)
    }
}
