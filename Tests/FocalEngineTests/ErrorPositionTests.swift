import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// Where task errors point: the user's file, line and column, an excerpt, the task frames.
@Suite("Error positions in task files")
struct ErrorPositionTests {
    @Test("a syntax error on line 1 has the column in the file, not in Focal's wrapper, and an excerpt with a caret")
    func firstLineColumn() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.path +);\n"])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.name == "SyntaxError")
        #expect(error.file == "index.js")
        #expect(error.line == 1)
        // The ')' is the 26th character of the line.
        #expect(error.column == 26)
        #expect(error.excerpt == "match('ev', n => n.path +);")
        #expect(error.detailLines == ["| match('ev', n => n.path +);", "| " + String(repeating: " ", count: 25) + "^"])
    }

    @Test("an unclosed brace is reported at the end of the user's file, not in the wrapper's closing lines")
    func unclosedBrace() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => {\n  return 1;\n"])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.line == 2)
        #expect(error.excerpt == "  return 1;")
        #expect(error.message.contains("at the end of the file"))
    }

    @Test("import and export are answered with 'ES modules are not supported; use require()'")
    func esModules() throws {
        for source in ["import { x } from './x';\n", "export const a = 1;\n", "  import y from 'y'\n"] {
            let harness = try EngineHarness(["index.js": source])
            harness.apply(registerRoot)
            let error = try #require(harness.takeErrors().first)
            #expect(error.message.contains("ES modules are not supported; use require()"), "\(source): \(error.message)")
        }
    }

    @Test("a runtime error names its line and column and the stack of task frames, innermost first, without Focal's")
    func runtimeStack() throws {
        let harness = try EngineHarness([
            "index.js": """
            const { price } = require('./lib/price');
            match('ev', node => { const p = price(node); return p; });
            """,
            "lib/price.js": """
            function price(node) {
              return node.attributes.sku.toUpperCase();
            }
            module.exports = { price };
            """,
        ])
        harness.apply(registerRoot, record(root, "ev"))
        let error = try #require(harness.takeErrors().first)
        let script = try #require(error.script)
        #expect(script.file == "lib/price.js")
        #expect(script.line == 2)
        #expect(script.excerpt == "  return node.attributes.sku.toUpperCase();")
        #expect(script.frames.map(\.file) == ["lib/price.js", "index.js"])
        #expect(script.frames.first?.function == "price")
        #expect(script.frames.last?.line == 2)
        // The caret is under the failing call, and the frame has the same column.
        #expect(script.detailLines[1] == "| " + String(repeating: " ", count: 28) + "^", "\(script.detailLines)")
        #expect(script.detailLines[2] == "at price (\(script.frames[0].file):2:29)", "\(script.detailLines)")
        // Not a tail call: in strict code a call in tail position leaves no frame of its own.
        #expect(script.frames[1].line == 2 && script.frames[1].column == 38, "\(script.frames)")
    }

    @Test("a runtime error on line 1 has its column in the file: the wrapper's opening is taken out")
    func runtimeFirstLine() throws {
        let harness = try EngineHarness(["index.js": "match('ev', n => n.parentNode.nodeName);"])
        harness.apply(registerRoot, record(root, "ev"))
        let script = try #require(harness.takeErrors().first?.script)
        #expect(script.line == 1)
        // JavaScriptCore points at the property read of null: `.nodeName`, column 30.
        #expect(script.column == 30, "\(script)")
        #expect(script.frames.first?.column == 30, "\(script.frames)")
    }

    @Test("a thrown non-Error is shown as JSON, not [object Object]")
    func thrownValues() throws {
        let harness = try EngineHarness([
            "index.js": """
            match('a', () => { throw { code: 42 }; });
            match('b', () => { throw 'out of stock'; });
            """
        ])
        harness.apply(registerRoot, record(root, "a"), record(root, "b"))
        let messages = harness.takeErrors().map(\.message)
        #expect(messages.count == 2)
        #expect(messages[0].hasSuffix(#"uncaught {"code":42}"#), "\(messages)")
        #expect(messages[1].hasSuffix(#"uncaught "out of stock""#), "\(messages)")
    }

    @Test("a failing task names the node by its path and its id")
    func nodeNamedByPath() throws {
        let harness = try EngineHarness(["index.js": "match('cell/ev', () => { throw new Error('no'); });"])
        harness.apply(
            registerRoot, register(2, under: root, "list"), register(keyed(3, "sku-3"), under: 2, "cell"), record(keyed(3, "sku-3"), "ev"))
        let message = try #require(harness.takeErrors().first?.message)
        #expect(message.contains("at node /list/cell (id 3/sku-3)"), "\(message)")
    }

    @Test("a syntax error in a required module has that module's line and column, not the requirer's column")
    func requiredModuleSyntaxError() throws {
        let harness = try EngineHarness([
            "index.js": "const h = require('./lib/helpers');\nmatch('ev', n => h.f(n));\n",
            "lib/helpers.js": "module.exports = {\n  f: node => { return 1 +; },\n};\n",
        ])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.file == "lib/helpers.js" && error.line == 2, "\(error)")
        // The ';' is the 26th character of the 28-character line (JavaScriptCore's column was the require call's).
        #expect(error.column == 26, "\(error)")
        #expect(error.excerpt == "  f: node => { return 1 +; },")
    }

    @Test("a required module's import statement is answered with 'ES modules are not supported' where it is")
    func requiredModuleImport() throws {
        let harness = try EngineHarness([
            "index.js": "\n\nconst x = require('./lib/x');\n",
            "lib/x.js": "  import y from './y';\nmodule.exports = y;\n",
        ])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.message.contains("ES modules are not supported; use require()"), "\(error)")
        #expect(error.file == "lib/x.js" && error.line == 1 && error.column == 3, "\(error)")
    }

    @Test(
        "the wrapper's own closing never speaks: an unclosed bracket is the end of the file, a brace too many is itself",
        arguments: [
            ("const a = 1;\nmatch('ev', n => (\n  a + 1\n", 3, "at the end of the file"),
            ("const a = 1;\nif (a) {\n  match('ev', n => a);\n", 3, "at the end of the file"),
            ("const a = 1 +\n", 1, "at the end of the file"),
            ("const a = 1;\n}\nmatch('ev', n => a);\n", 2, "'}': it closes no open brace"),
            // A top-level return is valid in a module: the file's own error is still found past it.
            ("if (typeof match !== 'function') return;\nmatch('ev', n => (\n  1\n", 3, "at the end of the file"),
        ])
    func wrapperNeverSpeaks(source: String, line: Int, saying: String) throws {
        let harness = try EngineHarness(["index.js": source])
        harness.apply(registerRoot)
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(saying), "\(error)")
        #expect(!error.message.contains("Expected ')'") && !error.message.contains("Unexpected token ')'"), "\(error)")
        if !source.contains("}") { #expect(!error.message.contains("'}'"), "\(error)") }
    }

    @Test("a task stopped by the time limit names the line that was running and the stack of task frames")
    func timeoutStack() throws {
        let harness = try EngineHarness(
            [
                "index.js": """
                const { total } = require('./lib/sum');
                match('ev', node => {
                  const sum = total(node.index);
                  return sum;
                });
                """,
                "lib/sum.js": """
                function total(start) {
                  let sum = 0;
                  for (let i = 0; i < 1e10; i++) {
                    sum += String(i).length;
                  }
                  return sum;
                }
                module.exports = { total };
                """,
            ], timeLimit: .milliseconds(100))
        harness.apply(registerRoot, record(root, "ev"))
        let error = try #require(harness.takeErrors().first?.script)
        #expect(error.isTimeout, "\(error)")
        // The innermost frame's line is where JavaScriptCore last noted its place: the loop, or its body's call.
        #expect(error.file == "lib/sum.js" && (3...4).contains(error.line ?? 0), "\(error)")
        #expect(error.excerpt?.hasPrefix("  ") == true, "\(error)")
        #expect(error.frames.map(\.file) == ["lib/sum.js", "index.js"], "\(error.frames)")
        #expect(error.frames.first?.function == "total" && error.frames.last?.line == 3, "\(error.frames)")
    }

    @Test("a write to the frozen global object says to keep state in a top-level let")
    func globalWriteHint() throws {
        let harness = try EngineHarness([
            "index.js": """
            match('ev', () => { globalThis.count = 1; return 1; });
            match('old', () => { globalThis.JSON = null; return 1; });
            match('sloppy', () => { Function('total = 2')(); return 1; });
            """
        ])
        harness.apply(registerRoot, record(root, "ev"), record(root, "old"), record(root, "sloppy"))
        let errors = harness.takeErrors()
        #expect(errors.count == 3, "\(errors)")
        for (error, name) in zip(errors, ["count", "JSON", "total"]) {
            #expect(error.message.contains("cannot set globalThis.\(name): the global object is frozen"), "\(error)")
            #expect(error.message.contains("top-level `let \(name)`"), "\(error)")
        }
        #expect(errors.first?.script?.line == 1 && errors.first?.script?.column == 31, "\(errors)")
        #expect(harness.takeResults().isEmpty)
    }
}
