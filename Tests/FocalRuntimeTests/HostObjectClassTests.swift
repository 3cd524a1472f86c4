import FocalJSON
import FocalRuntime
import Testing

@Suite("Host object classes")
struct HostObjectClassTests {
    @Test("a getter reads the payload of the object it is read on")
    func getters() throws {
        let runtime = try TokenObject.runtime()
        let tally = Tally()
        runtime.setGlobal("a", TokenObject.hostClass.makeObject(in: runtime, payload: Token(7, tally: tally)))
        runtime.setGlobal("b", TokenObject.hostClass.makeObject(in: runtime, payload: Token(9, tally: tally)))
        #expect(try runtime.evaluateJSON("[a.number, b.number, Object.prototype.toString.call(a)]") == [7, 9, "[object Token]"])
        #expect(try runtime.evaluateJSON("a.number = 1; delete a.number; [a.number, Object.keys(a)]") == [7, ["number"]])
    }

    @Test("a payload lives as long as its object: kept while JavaScript reaches it, released once it is collected")
    func payloadLifetime() throws {
        let tally = Tally()
        var runtime: JSRuntime? = try TokenObject.runtime()
        let keep = try #require(
            runtime!.object(runtime!.evaluate("globalThis.kept = []; globalThis.keep = object => { kept.push(object); }")))
        let count = 100
        for number in 0..<count {
            // Every tenth is reachable from JavaScript; the others are garbage at once.
            let object = TokenObject.hostClass.makeObject(in: runtime!, payload: Token(number, tally: tally))
            if number % 10 == 0 { _ = try runtime!.call(keep, arguments: [object]) }
        }
        try runtime!.churn()
        #expect(tally.released <= count - count / 10)
        #expect(try runtime!.evaluateJSON("kept.map(o => o.number)") == .array((0..<count / 10).map { .number(Double($0 * 10)) }))
        // The runtime's end collects every object: each payload is released, once.
        runtime = nil
        #expect(tally.released == count)
    }
}
