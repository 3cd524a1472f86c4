import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// `results([…])`: several results from one task call; a returned array stays one result.
@Suite("Several results from one call")
struct MultipleResultsTests {
    @Test("results([a, b]) writes a and b as two results in order, skipping undefined; an array is still one result")
    func several() throws {
        let harness = try EngineHarness([
            "index.js": """
            match('ev', n => results([{ step: 'view' }, undefined, { step: 'cart' }]));
            match('ev', n => [1, 2]);
            match('ev', n => results([]));
            match('ev', n => results(['line\\nbreak', { text: 'cr\\r\\nlf\\u2028' }]));
            """
        ])
        harness.apply(registerRoot)
        // Line breaks inside a result's strings stay in that result (its JSON text escapes them).
        #expect(
            harness.fire(root) == [
                ["step": "view"], ["step": "cart"], [1, 2], "line\nbreak", ["text": .string("cr\r\nlf\u{2028}")],
            ])
        #expect(harness.takeErrors().isEmpty)
    }

    @Test("results() nested in a result, holding a function, or given a non-array is an error of that task only")
    func misuse() throws {
        let harness = try EngineHarness([
            "index.js": """
            match('ev', n => ({ all: results([1]) }));
            match('ev', n => results([() => 1]));
            match('ev', n => results(1));
            match('ev', n => 'still runs');
            """
        ])
        harness.apply(registerRoot)
        #expect(harness.fire(root) == ["still runs"])
        let errors = harness.takeErrors().map(\.message)
        #expect(errors.count == 3, "\(errors)")
        #expect(errors[0].contains("must be what the task returns"), "\(errors)")
        #expect(errors[1].contains("a function is not a JSON value"), "\(errors)")
        #expect(errors[2].contains("results() needs an array"), "\(errors)")
    }
}
