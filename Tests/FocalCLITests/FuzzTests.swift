import FocalJSON
import FocalTestSupport
import Foundation
import Testing

@Suite("Fuzzing focal replay", .serialized)
struct FuzzTests {
    static let tasks = [
        "index.js": """
        match('ev', n => [n.path, n.index, n.attributes, n.latestEvent().attributes]);
        match(['a/*/ana-appeared', 'b/ana-updated'], n => n.valueFirstDisplayedEvent('k') === n.latestEvent() ? n.latestValue('k') : undefined);
        match('*/boom', n => { throw new Error('boom at ' + n.path); });
        match('/a/ev', n => n.ancestor(n.path.length % 4));
        """,
        "A/B.js": "match('b/ev', n => n.parentNode && n.parentNode.nodeName);",
    ]

    /// A random id: mostly small owned ids, sometimes keyed, sometimes invalid.
    static func randomID(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: return String(Int.random(in: 1...30, using: &random))
        case 6..<9: return "[\(Int.random(in: 1...5, using: &random)),\"k\",\(Int.random(in: 0...5, using: &random))]"
        default: return ["[]", "1.5", "\"x\"", "[1,null]", "-3", "[2,[1]]"].randomElement(using: &random)!
        }
    }

    /// A random op-log line: a plausible op, or a broken one.
    static func randomLine(_ random: inout SeededGenerator) -> String {
        let names = ["a", "b", "c", "*", "", "x/y", "é"]
        let events = ["ev", "boom", "ana-appeared", "ana-disappeared", "ana-updated", "other"]
        let values = ["1", "\"1\"", "null", "{\"z\":[1,2]}", "[]", "true", "0.5"]
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<6:
            let parent = Int.random(in: 0..<8, using: &random) == 0 ? "null" : randomID(&random)
            var extra = ""
            if Bool.random(using: &random) { extra += ",\"index\":\(Int.random(in: -2...9, using: &random))" }
            if Int.random(in: 0..<6, using: &random) == 0 {
                extra += ",\"namespace\":\"\(["A.B", "A", "Nope", "..", "A/B", ""].randomElement(using: &random)!)\""
            }
            return Line.register(randomID(&random), parent: parent, names.randomElement(using: &random)!, extra: extra)
        case 6..<14:
            let event = events.randomElement(using: &random)!
            var extra = ",\"time\":\(Int.random(in: 0...1_000_000, using: &random))"
            if event == "ana-updated" { extra += ",\"properties\":{\"key-path\":\"k\",\"value\":\(values.randomElement(using: &random)!)}" }
            return Line.record(randomID(&random), event, extra: extra)
        case 14..<16: return Line.deregister(randomID(&random))
        case 16: return #"{"op":"snapshot","format":"\#(["xml", "json", "svg"].randomElement(using: &random)!)"}"#
        case 17:
            // A valid line cut short.
            let line = Line.record(randomID(&random), "ev")
            return String(line.prefix(Int.random(in: 0..<line.count, using: &random)))
        case 18:
            // A valid line with a byte replaced.
            var bytes = Array(Line.register(randomID(&random), parent: "1", "a").utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            return String(decoding: bytes, as: UTF8.self)
        default:
            return String(
                decoding: (0..<Int.random(in: 0...60, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }.filter {
                    $0 != 0x0A
                }, as: UTF8.self)
        }
    }

    @Test("random op sequences never crash or hang replay", arguments: [1, 2, 3] as [UInt64])
    func randomOps(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let lines = [Line.root] + (0..<3000).map { _ in Self.randomLine(&random) }
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let run = try runFocal(["replay", "--tasks", workspace.tasks, "--time-limit", "200"], input: log(lines), timeout: .seconds(90))
        #expect(!run.timedOut, "seed \(seed)")
        #expect(!run.crashed, "seed \(seed): \(run)")
        #expect(run.status == 0 || run.status == 1, "seed \(seed): \(run)")
        #expect(run.errorLines.count > 0)
        #expect((try? run.results) != nil, "stdout must stay JSON lines")
    }

    @Test("random bytes never crash or hang replay", arguments: [11, 12] as [UInt64])
    func randomBytes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Some newlines, so there are many short lines as well as long ones.
        for _ in 0..<3000 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = 0x0A }
        let workspace = try TemporaryDirectory(tasks: Self.tasks)
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks], input: Data(log([Line.root, Line.register("2", parent: "1", "a")])) + Data(bytes),
            timeout: .seconds(90))
        #expect(!run.timedOut, "seed \(seed)")
        #expect(!run.crashed, "seed \(seed): \(run)")
        #expect(run.status == 1, "seed \(seed): \(run)")
        let errors = run.stderr.split(separator: "\n")
        #expect(!errors.isEmpty && errors.allSatisfy { $0.hasPrefix("error: ") }, "seed \(seed): \(run.stderr.prefix(500))")
    }
}
