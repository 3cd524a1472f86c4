import FocalTestSupport
import Foundation
import Testing

/// What a task writer meets first: `focal init`, the TypeScript declarations, `focal check`'s
/// warnings and error positions on the command line.
@Suite("Writing tasks from the command line")
struct TaskAuthoringTests {
    /// Runs `tsc` (Debian's node-typescript; Scripts/test installs it) with `arguments`.
    static func typeCheck(_ arguments: [String]) throws -> RunResult {
        try runFocal(["tsc"] + arguments, timeout: .seconds(300), executable: "/usr/bin/env")
    }

    @Test("focal init writes a tasks directory whose scenario passes focal test, and refuses to write over it")
    func initThenTest() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        let directory = workspace.path + "/shop"
        let created = try runFocal(["init", directory])
        #expect(created.status == 0, "\(created)")
        for file in ["index.js", "Shop/Detail.js", "scenarios/shop.yaml", "jsconfig.json", "focal.d.ts"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file)")
        }
        let tested = try runFocal(["test", directory])
        #expect(tested.status == 0, "\(tested)")
        #expect(tested.stdoutLines.first?.hasPrefix("PASS ") == true, "\(tested)")
        #expect(tested.stdoutLines.last == "1 passed, 0 failed", "\(tested)")
        #expect(tested.errorLines.isEmpty && !tested.stderr.contains("warning:"), "\(tested)")

        let index = try String(contentsOfFile: directory + "/index.js", encoding: .utf8)
        try workspace.write("shop/index.js", index + "\n// edited\n")
        let again = try runFocal(["init", directory])
        #expect(again.status == 2, "\(again)")
        #expect(again.errorLines.first?.contains("index.js' exists") == true, "\(again)")
        #expect(try String(contentsOfFile: directory + "/index.js", encoding: .utf8).hasSuffix("// edited\n"))
    }

    @Test("focal test --watch runs the scenarios again when a task file changes")
    func watchRunsAgain() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        #expect(try runFocal(["init", workspace.path + "/shop"]).status == 0)
        let watching = try StreamingFocal(["test", "--watch", workspace.path + "/shop"])
        defer { watching.process.terminate() }
        /// Waits (on output, not on time) until a line equal to `summary` has been written.
        func output(through summary: String) -> [String] {
            var wanted = 1
            while true {
                let lines = watching.lines(count: wanted)
                if lines.contains(summary) || lines.count < wanted { return lines }
                wanted = lines.count + 1
            }
        }
        let first = output(through: "1 passed, 0 failed")
        #expect(first.last == "1 passed, 0 failed", "\(first)")
        try workspace.write("shop/Shop/Detail.js", "match('detail/add-to-cart/touch-up-inside', () => ({ event: 'edited' }));\n")
        let second = output(through: "0 passed, 1 failed")
        #expect(second.last == "0 passed, 1 failed", "\(second)")
        #expect(second.contains { $0.hasPrefix("--- ") && $0.hasSuffix("Detail.js changed: running again") }, "\(second)")
    }

    @Test("the focal.d.ts that focal init writes is the repository's tasks/focal.d.ts")
    func declarationsMatch() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        #expect(try runFocal(["init", workspace.path + "/new"]).status == 0)
        let written = try String(contentsOfFile: workspace.path + "/new/focal.d.ts", encoding: .utf8)
        let repository = try String(contentsOfFile: repositoryRoot + "/tasks/focal.d.ts", encoding: .utf8)
        #expect(written == repository, "the binary embeds Sources/focal/Template/focal.d.ts, which tasks/focal.d.ts links to")
    }

    @Test("tsc --checkJs accepts the template, the repository's tasks and the example scenarios' tasks, and rejects a wrong file")
    func typeChecks() throws {
        let workspace = try TemporaryDirectory(tasks: [:])
        #expect(try runFocal(["init", workspace.path + "/shop"]).status == 0)
        let template = try Self.typeCheck(["-p", workspace.path + "/shop/jsconfig.json"])
        #expect(template.status == 0, "\(template)")
        let repository = try Self.typeCheck(["-p", repositoryRoot + "/tasks/jsconfig.json"])
        #expect(repository.status == 0, "\(repository)")
        let options = [
            "--allowJs", "--checkJs", "--noEmit", "--strictNullChecks", "--target", "es2022", "--lib", "es2022", "--module", "commonjs",
        ]
        let examples = try Self.typeCheck(
            options + [repositoryRoot + "/tasks/focal.d.ts", repositoryRoot + "/Examples/scenarios/tasks/index.js"])
        #expect(examples.status == 0, "\(examples)")

        try workspace.write(
            "shop/wrong.js",
            """
            match('row/did-select', node => ({ title: node.lastestValue('title') }));
            match('row/ana-appeared', node => new Map());
            match('detail/ana-appeared', node => node.parentNode.index);
            match(42, node => 1);
            """)
        let wrong = try Self.typeCheck(["-p", workspace.path + "/shop/jsconfig.json"])
        #expect(wrong.status != 0, "\(wrong)")
        for expected in [
            "wrong.js(1,", "'lastestValue' does not exist", "wrong.js(2,", "Map<any, any>", "wrong.js(3,", "possibly 'null'", "wrong.js(4,",
        ] {
            #expect(wrong.stdout.contains(expected), "\(expected): \(wrong)")
        }
    }

    @Test("Docs/tasks.md describes every member focal.d.ts declares, and its examples type-check")
    func referenceMatchesDeclarations() throws {
        let declarations = try String(contentsOfFile: repositoryRoot + "/tasks/focal.d.ts", encoding: .utf8)
        let reference = try String(contentsOfFile: repositoryRoot + "/Docs/tasks.md", encoding: .utf8)
        var names: [String] = []
        var inInterface = false
        for line in declarations.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("interface FocalNode ") || text.hasPrefix("interface FocalEvent ")
                || text.hasPrefix("interface FocalConsole ")
            {
                inInterface = true
            } else if text == "}" {
                inInterface = false
            } else if inInterface, !text.hasPrefix("/") && !text.hasPrefix("*") {
                let declared = text.replacingOccurrences(of: "readonly ", with: "")
                if let end = declared.firstIndex(where: { $0 == ":" || $0 == "(" || $0 == "?" }) { names.append(String(declared[..<end])) }
            } else if text.hasPrefix("declare function ") || text.hasPrefix("declare var ") {
                let declared = text.split(separator: " ")[2]
                names.append(String(declared.prefix { $0.isLetter || $0 == "_" }))
            }
        }
        #expect(names.count > 20, "\(names)")
        for name in names {
            #expect(
                reference.contains("`\(name)") || reference.contains(" \(name)`") || reference.contains("`\(name)`"),
                "\(name) is not in Docs/tasks.md")
        }
        let workspace = try TemporaryDirectory(tasks: [:])
        var files: [String] = []
        for (number, block) in reference.components(separatedBy: "```js\n").dropFirst().enumerated() {
            let code = block.components(separatedBy: "```")[0]
            files.append(try workspace.write("example\(number).js", code))
        }
        #expect(files.count >= 3)
        let options = [
            "--allowJs", "--checkJs", "--noEmit", "--strictNullChecks", "--target", "es2022", "--lib", "es2022", "--module", "commonjs",
        ]
        let checked = try Self.typeCheck(options + [repositoryRoot + "/tasks/focal.d.ts"] + files)
        #expect(checked.status == 0, "\(checked)")
    }

    @Test("focal check warns about a directory without index.js, and --against lists unmatched patterns and unloaded files")
    func checkWarnings() throws {
        let empty = try TemporaryDirectory(tasks: ["Shop/Detail.js": "match('ev', () => 1);"])
        let bare = try runFocal(["check", empty.tasks])
        #expect(bare.status == 0, "\(bare)")
        #expect(bare.stderrLines.contains { $0.hasPrefix("warning: ") && $0.contains("no index.js") }, "\(bare)")
        #expect(bare.stdoutLines.last?.hasSuffix("0 errors, 1 warning") == true, "\(bare)")

        let workspace = try TemporaryDirectory(tasks: [
            "index.js": """
            match('products/row/did-select', () => 1);
            match('prodcuts/row/did-select', () => 2);
            """,
            "Shop/detail.js": "match('ev', () => 3);",
        ])
        let log = try workspace.write(
            "session.oplog",
            """
            {"op":"register","node":1,"parent":null,"name":"app","time":1}
            {"op":"register","node":2,"parent":1,"name":"products","time":1}
            {"op":"register","node":3,"parent":2,"name":"row","time":1}
            {"op":"register","node":4,"parent":3,"name":"detail","namespace":"Shop.Detail","time":1}
            {"op":"record","node":3,"event":"did-select","time":2}

            """)
        let checked = try runFocal(["check", "--against", log, workspace.tasks])
        #expect(checked.status == 0, "\(checked)")
        let warnings = checked.stderrLines.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 2, "\(checked)")
        #expect(warnings.contains { $0.contains("'prodcuts/row/did-select'") && $0.contains("index.js:2") }, "\(checked)")
        #expect(warnings.contains { $0.contains("'Shop/detail.js' was never loaded") }, "\(checked)")
        #expect(checked.stdout.contains("0 errors, 2 warnings"), "\(checked)")
    }

    @Test("replay shows a syntax error at the user's line and column with an excerpt and a caret")
    func syntaxErrorExcerpt() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('ev', n => n.path +);\n"])
        let run = try runFocal(
            ["replay", "--tasks", workspace.tasks], input: Data(#"{"op":"register","node":1,"parent":null,"name":"app"}"#.utf8 + [0x0A]))
        #expect(run.status == 1, "\(run)")
        let lines = run.stderrLines
        let at = try #require(lines.firstIndex { $0.hasPrefix("error: ") }, "\(run)")
        #expect(lines[at].contains("index.js:1:26: SyntaxError"), "\(run)")
        try #require(lines.count > at + 2, "\(run)")
        #expect(lines[at + 1] == "    | match('ev', n => n.path +);", "\(run)")
        #expect(lines[at + 2] == "    | " + String(repeating: " ", count: 25) + "^", "\(run)")
    }

    @Test("replay reports each Promise a task returned as an error of its line, in input order among errors, writing nothing")
    func promiseErrorInOrder() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": """
            match('/boom', () => { throw new Error('first'); });
            match('/later', async () => ({ a: 1 }));
            """
        ])
        let lines = [
            #"{"op":"register","node":1,"parent":null,"name":"app"}"#, Line.record("1", "boom"), Line.record("1", "later"),
            Line.record("1", "later"),
        ]
        let run = try runFocal(["replay", "--tasks", workspace.tasks], input: log(lines))
        #expect(run.stdoutLines.isEmpty, "\(run)")
        let said = run.stderrLines.filter { $0.hasPrefix("error: ") || $0.hasPrefix("warning: ") }
        #expect(said.count == 3, "\(run)")
        #expect(said.first?.hasPrefix("error: line 2: ") == true, "\(run)")
        for (line, text) in zip([3, 4], said.dropFirst()) {
            #expect(text.hasPrefix("error: line \(line): task '/later' (index.js:2) returned a value that is not JSON"), "\(run)")
            #expect(text.contains("a Promise is not a result: tasks run synchronously and a Promise is never awaited"), "\(run)")
        }
    }

    @Test("the end of input records ana-session-ended on every session, in the same order whatever the number of engines")
    func endOfInputOrder() throws {
        let workspace = try TemporaryDirectory(tasks: [
            "index.js": """
            match('/ana-session-ended', n => ({ reason: n.latestEvent().attributes.reason, screen: n.latestValue('screen') }));
            """
        ])
        var log = ""
        for session in ["u3", "u1", "u2", "u5", "u4"] {
            log += #"{"op":"register","node":1,"parent":null,"name":"app","session":"\#(session)","time":10}"# + "\n"
            log +=
                #"{"op":"record","node":1,"event":"ana-updated","properties":{"key-path":"screen","value":"\#(session)"},"session":"\#(session)","time":20}"#
                + "\n"
        }
        log += #"{"op":"end","session":"u2"}"# + "\n"
        let path = try workspace.write("sessions.oplog", log)
        let one = try runFocal(["replay", "--tasks", workspace.tasks, path])
        let several = try runFocal(["replay", "--tasks", workspace.tasks, "--jobs", "3", path])
        #expect(one.status == 0 && several.status == 0, "\(one)\n\(several)")
        #expect(
            one.stdoutLines == [
                #"{"session":"u2","result":{"reason":"end","screen":"u2"}}"#,
                #"{"session":"u1","result":{"reason":"end-of-input","screen":"u1"}}"#,
                #"{"session":"u3","result":{"reason":"end-of-input","screen":"u3"}}"#,
                #"{"session":"u4","result":{"reason":"end-of-input","screen":"u4"}}"#,
                #"{"session":"u5","result":{"reason":"end-of-input","screen":"u5"}}"#,
            ], "\(one)")
        #expect(several.stdoutLines == one.stdoutLines, "\(several)")
    }
}
