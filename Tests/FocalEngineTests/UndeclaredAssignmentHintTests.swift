import FocalEngine
import FocalOpLog
import Testing

/// An assignment to an undeclared name in a (strict) task file says to declare it, as a write to the frozen global
/// object does (issue 56); a read of an undeclared name (a typo) does not.
@Suite("The hint for an undeclared assignment")
struct UndeclaredAssignmentHintTests {
    static let hint = "declare it with `let count`"

    @Test(
        "an assignment in a handler, in any form, says to declare the name with a top-level let",
        arguments: ["count = 1", "count=1", "count += 1", "count++", "++count", "count ??= 1", "if (true) count = 2"])
    func inHandler(statement: String) throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => { \(statement); return 1; });\n"])
        harness.apply(registerRoot, record(root, "ev"))
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.name == "ReferenceError")
        #expect(error.message.hasPrefix("Can't find variable: count ("), "\(error)")
        #expect(error.message.contains(Self.hint), "\(error)")
        #expect(error.message.contains("top-level `let count` of the task file or of a module"), "\(error)")
    }

    @Test("an assignment at a file's top level gets the hint too, in the load error")
    func atTopLevel() throws {
        let harness = try EngineHarness(["index.js": "count = 0;\nmatch('ev', () => 1);\n"])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first)
        #expect(error.message.contains("failed to load"), "\(error)")
        #expect(error.message.contains(Self.hint), "\(error)")
        #expect(error.script?.line == 1)
    }

    @Test("a read of an undeclared name keeps JavaScriptCore's message", arguments: ["return count + 1", "count == 1", "count <= 1"])
    func read(statement: String) throws {
        let harness = try EngineHarness(["index.js": "match('ev', () => { \(statement); });\n"])
        harness.apply(registerRoot, record(root, "ev"))
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.message == "Can't find variable: count", "\(error)")
    }
}
