import FocalTestSupport
import Foundation
import Testing

/// An assignment to an undeclared name in a task file, through `focal replay` (issue 56).
@Suite("An undeclared assignment through the CLI")
struct UndeclaredAssignmentCLITests {
    @Test("an assignment to an undeclared name says to declare it with a top-level let; a typo that reads one does not")
    func undeclaredAssignment() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": """
            match('tap', () => { count = 1; return count; });
            match('read', () => cuont + 1);
            """
        ])
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks],
            input: log([Line.root, Line.record("1", "tap"), Line.record("1", "read")]))
        #expect(run.status == 1)
        #expect(run.errorLines.count == 2, "\(run)")
        #expect(run.errorLines.first?.contains("ReferenceError: Can't find variable: count (task files are strict") == true, "\(run)")
        #expect(run.errorLines.first?.contains("top-level `let count` of the task file or of a module") == true, "\(run)")
        #expect(run.errorLines.last?.hasSuffix("ReferenceError: Can't find variable: cuont") == true, "\(run)")
    }
}
