import FocalJSON
import Testing

@testable import FocalRuntime

/// Calls inside ``JSRuntime/withOneEntry(_:)`` behave as calls that each enter the VM.
@Suite("Many calls in one VM entry")
struct OneEntryTests {
    /// Runs `steps` in order, in one entry (each a step), or as they are when `batched` is false.
    static func run(_ runtime: JSRuntime, batched: Bool = true, _ steps: [() -> Void]) {
        var next = 0
        let step = {
            guard next < steps.count else { return false }
            steps[next]()
            next += 1
            return true
        }
        if batched { runtime.withOneEntry(step) } else { while step() {} }
    }

    /// The function `source` evaluates to, protected: the steps keep it in closures, which the
    /// collector does not scan.
    static func function(_ runtime: JSRuntime, _ source: String) throws -> ProtectedValue {
        let function = runtime.protect(try runtime.evaluate("(\(source))"))
        try #require(function.object != nil)
        return function
    }

    /// The outcome of a call: its value as JSON, or the kind of error it threw.
    static func outcome(_ runtime: JSRuntime, _ function: ProtectedValue) -> String {
        do {
            return try runtime.jsonText(runtime.call(function.object!)) ?? "undefined"
        } catch {
            return error.isTimeout ? "timeout" : error.isHeapLimit ? "heap limit" : "error: \(error.message)"
        }
    }

    @Test("JavaScriptCore exports what a batch needs (else every batch falls back to an entry per call)")
    func lockIsFound() {
        #expect(VMLock.shared != nil)
    }

    @Test("each call's promise jobs, their chains and awaits run before the next call", arguments: [false, true])
    func promiseJobOrder(batched: Bool) throws {
        let runtime = try JSRuntime(timeLimit: .seconds(5))
        _ = try runtime.evaluate("var log = [], n = 0;")
        let step = try Self.function(
            runtime,
            """
            function step() {
              const i = ++n;
              log.push('call ' + i);
              Promise.resolve().then(() => log.push('job ' + i)).then(() => log.push('chain ' + i));
              (async () => { await null; await null; log.push('await ' + i); })();
              return i;
            }
            """)
        var outcomes: [String] = []
        Self.run(runtime, batched: batched, Array(repeating: { outcomes.append(Self.outcome(runtime, step)) }, count: 3))
        #expect(outcomes == ["1", "2", "3"])
        let expected: JSONValue = .array(
            (1...3).flatMap { i in ["call \(i)", "job \(i)", "chain \(i)", "await \(i)"].map(JSONValue.string) })
        #expect(try runtime.evaluateJSON("log") == expected)
    }

    @Test("every runaway call in a batch is stopped, and the calls between them run normally")
    func runawaysInOneBatch() throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        let runaway = try Self.function(runtime, "function () { \(spin) {} return 'not stopped'; }")
        let add = try Self.function(runtime, "function () { return 2 + 3; }")
        var outcomes: [String] = []
        var ticks: [Int] = []
        let stopped = {
            let before = runtime.watchdogTicks.counted
            outcomes.append(Self.outcome(runtime, runaway))
            ticks.append(runtime.watchdogTicks.counted - before)
        }
        let added = { outcomes.append(Self.outcome(runtime, add)) }
        Self.run(runtime, [stopped, added, added, stopped, stopped, added])
        #expect(outcomes == ["timeout", "5", "5", "timeout", "timeout", "5"])
        // Each runaway had its whole limit: the tick it started in, which began before it,
        // and then every tick of the limit.
        let allowed = runtime.watchdogTicks.allowed
        #expect(ticks.allSatisfy { $0 > allowed && $0 <= allowed + 2 }, "ticks \(ticks) for a limit of \(allowed)")
        #expect(try runtime.number(runtime.evaluate("6 * 7")) == 42)
    }

    @Test("after a stopped call, the next steps' calls throw, return and convert as they do without a batch")
    func afterAStoppedCall() throws {
        let runtime = try JSRuntime(timeLimit: .milliseconds(100))
        let functions = try [
            "function () { \(spin) {} return 'not stopped'; }", "function () { throw new TypeError('x'); }",
            "function () { return undefined; }", "function () { return 2 + 3; }", "function () { return JSON.stringify([null]) + ''; }",
        ].map { try Self.function(runtime, $0) }
        var outcomes: [String] = []
        let order = [0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 2, 1, 4, 3]
        Self.run(runtime, order.map { index in { outcomes.append(Self.outcome(runtime, functions[index])) } })
        let expected = ["timeout", "error: x", "undefined", "5", "\"[null]\""]
        #expect(outcomes == order.map { expected[$0] })
    }

    /// A call whose promise job loops, and a call that allocates without end, with what stops them.
    static let stoppedAfterTheCall: [(source: String, outcome: String)] = [
        ("Promise.resolve().then(() => { \(spin) {} }); return 'queued';", "timeout"),
        ("const a = []; for (;;) a.push(new Array(1000).fill(1.5));", "heap limit"),
    ]

    @Test(
        "a runaway promise job or heap in a batch is reported by its call; the next calls run",
        arguments: [false, true], stoppedAfterTheCall.indices)
    func runawayJobOrHeap(batched: Bool, index: Int) throws {
        let (source, stopped) = Self.stoppedAfterTheCall[index]
        let runtime = try JSRuntime(timeLimit: .seconds(index == 0 ? 0.1 : 60), heapLimit: 32 << 20)
        let runaway = try Self.function(runtime, "function () { \(source) }")
        let add = try Self.function(runtime, "function () { return 2 + 3; }")
        var outcomes: [String] = []
        let ranAway = { outcomes.append(Self.outcome(runtime, runaway)) }
        let added = { outcomes.append(Self.outcome(runtime, add)) }
        Self.run(runtime, batched: batched, [ranAway, added, ranAway, added])
        #expect(outcomes == [stopped, "5", stopped, "5"])
    }

    @Test("work handed to afterEntry runs after its step, outside the entry, before the next step")
    func afterEntry() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(5))
        let add = try Self.function(runtime, "function () { return 2 + 3; }")
        var log: [String] = []
        Self.run(
            runtime,
            [
                {
                    runtime.afterEntry { log.append("after 1: batching \(runtime.isBatching), \(Self.outcome(runtime, add))") }
                    log.append("step 1: batching \(runtime.isBatching)")
                },
                { log.append("step 2: \(Self.outcome(runtime, add))") },
            ])
        #expect(log == ["step 1: batching true", "after 1: batching false, 5", "step 2: 5"])
    }

    @Test("a batch inside a batch, or inside a call, runs its body as it is")
    func nested() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(5))
        let add = try Self.function(runtime, "function () { return 2 + 3; }")
        var outcomes: [String] = []
        let added = { outcomes.append(Self.outcome(runtime, add)) }
        Self.run(runtime, [{ Self.run(runtime, [added]) }])
        let host = runtime.makeFunction(name: "host") { _, _ in
            Self.run(runtime, [added])
            return nil
        }
        _ = try runtime.call(host)
        #expect(outcomes == ["5", "5"])
    }
}
