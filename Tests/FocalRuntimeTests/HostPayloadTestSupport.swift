import FocalRuntime
import Synchronization

/// Counts the ``Token``s released.
final class Tally: Sendable {
    private let count = Atomic(0)
    var released: Int { count.load(ordering: .relaxed) }
    func release() { count.add(1, ordering: .relaxed) }
}

/// A payload with a number, which tells its tally when it is released.
final class Token {
    let number: Int
    private let tally: Tally

    init(_ number: Int, tally: Tally) {
        self.number = number
        self.tally = tally
    }

    deinit { tally.release() }
}

/// Host objects that carry a token: `number` reads it. The runtime is its own host.
enum TokenObject {
    static let hostClass = HostObjectClass<Token>(name: "Token", getters: [("number", number)], ownPrototype: false)

    static func number(_ token: Token, _ call: HostCall) -> ScriptValue? {
        call.host(as: JSRuntime.self)?.makeNumber(Double(token.number))
    }

    /// A runtime of `timeLimit` that is its own host.
    static func runtime(timeLimit: Duration = .seconds(120)) throws -> JSRuntime {
        let runtime = try JSRuntime(timeLimit: timeLimit, globalObjectClass: HostClass.global)
        runtime.setHost(runtime)
        return runtime
    }
}

extension JSRuntime {
    /// Allocates enough garbage that the collector runs (``collectGarbage()`` is only a hint).
    func churn() throws {
        _ = try evaluate("{ let junk = []; for (let i = 0; i < 20000; i++) junk.push({ i, s: 'garbage' + i }); junk = null; }")
        collectGarbage()
        _ = try evaluate("for (let i = 0; i < 20000; i++) ({ i });")
        collectGarbage()
    }
}
