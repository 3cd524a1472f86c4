import FocalJSON
import FocalRuntime
import Testing

@Suite("Kept values")
struct KeptValuesTests {
    /// `count` objects of `runtime` that only Swift memory holds, each kept in `kept`.
    private func keepTokens(_ count: Int, from first: Int, in runtime: JSRuntime, tally: Tally, into kept: inout KeptValues)
        -> [ScriptObject]
    {
        (first..<first + count).map { number in
            let object = TokenObject.hostClass.makeObject(in: runtime, payload: Token(number, tally: tally))
            kept.keep(object)
            return object
        }
    }

    @Test("kept values survive collections until they are released, each once")
    func keptUntilReleased() throws {
        let tally = Tally()
        var runtime: JSRuntime? = try TokenObject.runtime()
        var kept = KeptValues(in: runtime!)
        let objects = keepTokens(50, from: 0, in: runtime!, tally: tally, into: &kept)
        try runtime!.churn()
        #expect(tally.released == 0)
        #expect(objects.map { runtime!.number(runtime!.property($0, "number")) } == (0..<50).map(Double.init))
        kept.releaseAll()
        // Kept again after a release, and still kept when the runtime ends: `kept` keeps its context, and releases them
        // when it ends; then the context ends, and every payload has been released, once.
        _ = keepTokens(30, from: 50, in: runtime!, tally: tally, into: &kept)
        try runtime!.churn()
        #expect(tally.released <= 50)
        runtime = nil
        #expect(tally.released <= 50)
        _ = consume kept
        #expect(tally.released == 80)
    }
}
