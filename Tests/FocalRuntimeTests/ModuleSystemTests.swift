import FocalJSON
import FocalRuntime
import Foundation
import Testing

@Suite("CommonJS modules (tasks.md, \"The tasks directory\")")
struct ModuleSystemTests {
    @Test("module.exports, exports, __filename and __dirname")
    func moduleGlobals() throws {
        let fixture = try ModuleFixture([
            "sub/m.js":
                "exports.a = 1; module.exports.b = 2; exports.file = __filename; exports.dir = __dirname; exports.same = exports === module.exports;",
            "sub/replaced.js": "exports.lost = true; module.exports = ['replaced'];",
        ])
        let m = try fixture.require("./sub/m")
        #expect(m["a"] == 1)
        #expect(m["b"] == 2)
        #expect(m["file"] == "/sub/m.js")
        #expect(m["dir"] == "/sub")
        #expect(m["same"] == true)
        #expect(try fixture.require("./sub/replaced") == ["replaced"])
    }

    @Test("relative ids resolve against the requiring file's directory")
    func relativeIDs() throws {
        let fixture = try ModuleFixture([
            "index.js": "module.exports = [require('./util').name, require('./sub/a').name, require('./sub/a').viaParent];",
            "util.js": "exports.name = 'util';",
            "sub/a.js": "exports.name = 'a'; exports.viaParent = require('../lib/x').name + require('./b').name;",
            "sub/b.js": "exports.name = 'b';",
            "lib/x.js": "exports.name = 'x';",
        ])
        #expect(try fixture.require("./index") == ["util", "a", "xb"])
    }

    @Test("a path is tried as a file, then with .js, then with .json")
    func fileExtensions() throws {
        let fixture = try ModuleFixture([
            "plain": "module.exports = 'no extension';",
            "code.js": "module.exports = 'js';",
            "data.json": #"{"kind": "json"}"#,
            "both.js": "module.exports = 'js wins';",
            "both.json": #""json loses""#,
        ])
        #expect(try fixture.require("./plain") == "no extension")
        #expect(try fixture.require("./code") == "js")
        #expect(try fixture.require("./data") == ["kind": "json"])
        #expect(try fixture.require("./both") == "js wins")
    }

    @Test("a directory resolves to its index.js")
    func directoryIndex() throws {
        let fixture = try ModuleFixture([
            "widgets/index.js": "exports.name = 'widgets';",
            "user.js": "module.exports = require('./widgets').name;",
        ])
        #expect(try fixture.require("./user") == "widgets")
        #expect(try fixture.require("./widgets/") == ["name": "widgets"])
    }

    @Test("a .json file is parsed as JSON, not run as code")
    func jsonModules() throws {
        // As a script, this text would be a syntax error.
        let fixture = try ModuleFixture([
            "config.json": #"{"threshold": 3, "names": ["a", "b"]}"#,
            "use.js": "const c = require('./config.json'); module.exports = c.threshold + c.names.length;",
            "broken.json": "{not json}",
        ])
        #expect(try fixture.require("./use") == 5)
        #expect(throws: ScriptError.self) { try fixture.require("./broken.json") }
    }

    @Test("node_modules is searched from the requiring file's own directory upwards")
    func nodeModulesSearch() throws {
        let fixture = try ModuleFixture([
            "node_modules/tool.js": "module.exports = 'root tool';",
            "a/node_modules/tool/index.js": "module.exports = 'a tool';",
            "a/b/c/deep.js": "module.exports = require('tool');",
            "a/b/node_modules/tool.js": "module.exports = 'b tool';",
            "a/b/near.js": "module.exports = require('tool');",
            "a/mid.js": "module.exports = require('tool');",
            "top.js": "module.exports = require('tool');",
            "other/x.js": "module.exports = require('tool');",
        ])
        #expect(try fixture.require("./a/b/near") == "b tool")
        #expect(try fixture.require("./a/b/c/deep") == "b tool")
        #expect(try fixture.require("./a/mid") == "a tool")
        #expect(try fixture.require("./top") == "root tool")
        #expect(try fixture.require("./other/x") == "root tool")
    }

    @Test("a package's package.json main is honoured, and index.js is the fallback")
    func packageMain() throws {
        let fixture = try ModuleFixture([
            "node_modules/pkg/package.json": #"{"name": "pkg", "main": "lib/entry.js"}"#,
            "node_modules/pkg/lib/entry.js": "module.exports = 'entry via main';",
            "node_modules/pkg/index.js": "module.exports = 'index';",
            "node_modules/nomain/package.json": #"{"name": "nomain"}"#,
            "node_modules/nomain/index.js": "module.exports = 'index fallback';",
            "node_modules/dirmain/package.json": #"{"main": "./src"}"#,
            "node_modules/dirmain/src/index.js": "module.exports = 'main is a directory';",
            "user.js": "module.exports = [require('pkg'), require('nomain'), require('dirmain')];",
        ])
        #expect(try fixture.require("./user") == ["entry via main", "index fallback", "main is a directory"])
    }

    @Test(
        "a package.json that is not a JSON object with a string main is an error naming it, not a silent fallback",
        arguments: [
            (#"{"main": "lib/entry.js""#, "config 'node_modules/pkg/package.json': "),
            (#"["lib/entry.js"]"#, "config 'node_modules/pkg/package.json': not a JSON object"),
            (#"{"main": 7}"#, "config 'node_modules/pkg/package.json': 'main' is not a string"),
        ])
    func brokenPackageJSON(text: String, message: String) throws {
        let fixture = try ModuleFixture([
            "node_modules/pkg/package.json": text,
            "node_modules/pkg/lib/entry.js": "module.exports = 'entry';",
            "node_modules/pkg/index.js": "module.exports = 'index';",
            "user.js": "module.exports = require('pkg');",
        ])
        let error = try #require(throws: ScriptError.self) { try fixture.require("./user") }
        #expect(error.message.hasPrefix("Invalid package config '") && error.message.contains(message), "\(error.message)")
    }

    @Test("each module is evaluated once and cached")
    func evaluatedOnce() throws {
        let fixture = try ModuleFixture([
            "counter.js": "globalThis.evaluations = (globalThis.evaluations || 0) + 1; exports.object = {};",
            "a.js": "module.exports = require('./counter');",
            "b.js": "module.exports = require('./counter.js');",
            "check.js": "module.exports = require('./a') === require('./b') && require('./a').object === require('./counter').object;",
        ])
        #expect(try fixture.require("./check") == true)
        _ = try fixture.require("./counter")
        #expect(try fixture.runtime.evaluateJSON("evaluations") == 1)
    }

    @Test("invalidate() makes the next require evaluate files again")
    func invalidate() throws {
        let fixture = try ModuleFixture(["counter.js": "globalThis.evaluations = (globalThis.evaluations || 0) + 1;"])
        _ = try fixture.require("./counter")
        _ = try fixture.require("./counter")
        fixture.modules.invalidate()
        _ = try fixture.require("./counter")
        #expect(try fixture.runtime.evaluateJSON("evaluations") == 2)
    }

    @Test("hasChangedFiles notices an edited file")
    func changedFiles() throws {
        let fixture = try ModuleFixture(["m.js": "module.exports = 1;"])
        _ = try fixture.require("./m")
        #expect(!fixture.modules.hasChangedFiles)
        try fixture.directory.write("tasks/m.js", "module.exports = 22;")
        #expect(fixture.modules.hasChangedFiles)
    }

    @Test("module systems sharing CompiledModules that does not watch files all see the disk as first read")
    func sharedFirstReading() throws {
        let fixture = try ModuleFixture(["m.js": "module.exports = require('./n');", "n.js": "module.exports = 1;"])
        let compiled = try CompiledModules(runtime: fixture.runtime, root: fixture.tasksRoot, watchesFiles: false)
        let first = ModuleSystem(compiled: compiled)
        #expect(try fixture.runtime.number(first.require("./m")) == 1)
        try fixture.directory.write("tasks/n.js", "module.exports = 22;")
        #expect(!first.hasChangedFiles)
        let second = ModuleSystem(compiled: compiled)
        #expect(try fixture.runtime.number(second.require("./m")) == 1, "compiled once, not read again")
        #expect(throws: ScriptError.self) { try second.require("./absent") }
        try fixture.directory.write("tasks/absent.js", "module.exports = 3;")
        #expect(try fixture.runtime.number(second.require("./absent")) == 3, "a failed lookup is not remembered")
        let watching = ModuleSystem(compiled: try CompiledModules(runtime: fixture.runtime, root: fixture.tasksRoot))
        #expect(try fixture.runtime.number(watching.require("./m")) == 22)
    }

    @Test("module.id names the file as errors do, and module.loaded turns true once it ran")
    func moduleObject() throws {
        let fixture = try ModuleFixture([
            "sub/m.js": "exports.id = module.id; exports.loadedWhileRunning = module.loaded; exports.module = module;",
            "check.js":
                "const m = require('./sub/m'); module.exports = [m.id.endsWith('sub/m.js'), m.loadedWhileRunning, m.module.loaded, m.module.filename === require.resolve('./sub/m')];",
        ])
        #expect(try fixture.require("./check") == [true, false, true, true])
    }

    @Test("a module that replaces Reflect.apply or Function.prototype.call and .apply does not change how later modules run")
    func modulesRunWithTheOriginalBuiltins() throws {
        let fixture = try ModuleFixture([
            "vandal.js": """
            Reflect.apply = () => { throw new Error('replaced Reflect.apply'); };
            Function.prototype.call = () => { throw new Error('replaced call'); };
            Function.prototype.apply = () => { throw new Error('replaced apply'); };
            """,
            "later.js": "exports.self = this === exports; exports.dir = typeof __dirname; exports.next = require('./next').value;",
            "next.js": "exports.value = 'next';",
        ])
        _ = try fixture.require("./vandal")
        #expect(try fixture.require("./later") == ["self": true, "dir": "string", "next": "next"])
    }

    @Test("circular requires see the partial exports of the module being loaded")
    func circularRequires() throws {
        let fixture = try ModuleFixture([
            "a.js": "exports.early = 'a-early'; const b = require('./b'); exports.late = 'a-late'; exports.fromB = b.sawA;",
            "b.js": "const a = require('./a'); exports.sawA = [a.early, a.late === undefined];",
        ])
        #expect(try fixture.require("./a") == ["early": "a-early", "late": "a-late", "fromB": ["a-early", true]])
    }

    @Test("a module that throws is not cached")
    func throwingModuleNotCached() throws {
        let fixture = try ModuleFixture([
            "flaky.js":
                "globalThis.tries = (globalThis.tries || 0) + 1; if (globalThis.tries === 1) throw new Error('first time'); module.exports = 'ok';"
        ])
        #expect(throws: ScriptError.self) { try fixture.require("./flaky") }
        #expect(try fixture.require("./flaky") == "ok")
    }

    @Test("require.resolve returns the path of an existing module and throws for a missing one")
    func requireResolve() throws {
        let fixture = try ModuleFixture([
            "util.js": "",
            "r.js": """
            let missing;
            try { require.resolve('./nope'); missing = 'no throw'; } catch (e) { missing = e instanceof Error ? 'threw' : 'odd'; }
            let bare;
            try { require.resolve('not-installed'); bare = 'no throw'; } catch (e) { bare = 'threw'; }
            module.exports = [require.resolve('./util'), missing, bare];
            """,
        ])
        #expect(try fixture.require("./r") == ["/util.js", "threw", "threw"])
    }

    @Test("no path a module sees says where the tasks directory is; each is a path from it that require takes back")
    func pathsFromTheRoot() throws {
        let fixture = try ModuleFixture([
            "index.js": "exports.dir = __dirname; exports.sub = require('./lib/sub');",
            "lib/x.js": "module.exports = 'x';",
            "lib/sub.js": """
            const seen = [__filename, __dirname, module.filename, require.resolve('./x'), require.resolve('../index')];
            module.exports = {
              seen,
              back: [require(require.resolve('./x')), require(__dirname + '/x'), require('/lib/x')],
              escape: (() => { try { require('/../secret'); return 'loaded'; } catch (e) { return String(e.message); } })(),
            };
            """,
        ])
        let real = try #require(realPath(fixture.tasksRoot))
        let index = try fixture.require("./index")
        #expect(index["dir"] == "/")
        let sub = try #require(index["sub"])
        #expect(sub["seen"] == ["/lib/sub.js", "/lib", "/lib/sub.js", "/lib/x.js", "/index.js"])
        #expect(sub["back"] == ["x", "x", "x"])
        let escape = try #require(sub["escape"]?.stringValue)
        #expect(escape.contains("outside the tasks directory"), "\(escape)")
        #expect(!escape.contains(real))
    }

    @Test("requiring a missing module throws a catchable error naming the id")
    func missingModule() throws {
        let fixture = try ModuleFixture([
            "m.js": "try { require('./absent'); module.exports = 'no throw'; } catch (e) { module.exports = String(e.message); }"
        ])
        let message = try #require(try fixture.require("./m").stringValue)
        #expect(message.contains("./absent"))
        let error = #expect(throws: ScriptError.self) { try fixture.modules.require("./absent") }
        #expect(error?.message.contains("./absent") == true)
    }

    @Test("a module's thrown error carries its file and line")
    func errorLocation() throws {
        let fixture = try ModuleFixture(["sub/bad.js": "const a = 1;\n\nthrow new TypeError('broken here');\n"])
        let error = try #require(#expect(throws: ScriptError.self) { try fixture.modules.require("./sub/bad") })
        #expect(error.name == "TypeError")
        #expect(error.message == "broken here")
        #expect(error.file?.hasSuffix("sub/bad.js") == true)
        #expect(error.line == 3)
        #expect(error.description.contains("sub/bad.js:3"))
    }

    @Test("a module's syntax error carries its file and line")
    func syntaxErrorLocation() throws {
        let fixture = try ModuleFixture(["syntax.js": "exports.a = 1;\nexports.b = ;\n"])
        let error = try #require(#expect(throws: ScriptError.self) { try fixture.modules.require("./syntax") })
        #expect(error.name == "SyntaxError")
        #expect(error.file?.hasSuffix("syntax.js") == true)
        #expect(error.line == 2)
    }

    @Test("an error thrown in a required module names that module, not the requirer")
    func nestedErrorLocation() throws {
        let fixture = try ModuleFixture([
            "outer.js": "\nrequire('./inner');\n",
            "inner.js": "\n\n\nnull.boom;\n",
        ])
        let error = try #require(#expect(throws: ScriptError.self) { try fixture.modules.require("./outer") })
        #expect(error.file?.hasSuffix("inner.js") == true, "\(error)")
        #expect(error.line == 4)
    }
}

@Suite("Module resolution never leaves the tasks directory")
struct ModuleConfinementTests {
    /// Files outside the tasks directory that a task must not reach.
    static let outside = [
        "secret.js": "module.exports = 'SECRET';",
        "node_modules/escape.js": "module.exports = 'ESCAPED';",
    ]

    func fixture(_ tasks: [String: String]) throws -> ModuleFixture {
        let fixture = try ModuleFixture(tasks)
        for (relative, contents) in Self.outside { try fixture.directory.write(relative, contents) }
        return fixture
    }

    @Test(
        "../ out of the root is refused",
        arguments: ["../secret", "../secret.js", "./../secret", "./a/../../secret", "..", "../tasks/../secret"])
    func dotDot(id: String) throws {
        let fixture = try fixture(["a/keep.js": ""])
        let error = #expect(throws: ScriptError.self) { try fixture.modules.require(id) }
        #expect(error?.message.contains("SECRET") != true)
    }

    @Test("../ from a nested file that stays inside the root is allowed")
    func dotDotInside() throws {
        let fixture = try fixture(["a/b.js": "module.exports = require('../c');", "c.js": "module.exports = 'inside';"])
        #expect(try fixture.require("./a/b") == "inside")
    }

    @Test("absolute paths outside the root are refused")
    func absoluteOutside() throws {
        let fixture = try fixture([
            "m.js": "try { module.exports = require(process_path); } catch (e) { module.exports = 'refused'; }"
        ])
        let secret = fixture.directory.absolute("secret.js")
        #expect(throws: ScriptError.self) { try fixture.modules.require(secret) }
        #expect(throws: ScriptError.self) { try fixture.modules.require("/etc/passwd") }
        fixture.runtime.setGlobal("process_path", fixture.runtime.makeString(secret))
        #expect(try fixture.require("./m") == "refused")
    }

    @Test("node_modules above the root is not searched")
    func nodeModulesAboveRoot() throws {
        let fixture = try fixture(["m.js": "module.exports = require('escape');"])
        #expect(throws: ScriptError.self) { try fixture.require("./m") }
    }

    @Test("a symbolic link inside the root that points outside is refused")
    func symlinkFile() throws {
        let fixture = try fixture(["m.js": "module.exports = require('./link');"])
        try fixture.directory.link("tasks/link.js", to: fixture.directory.absolute("secret.js"))
        #expect(throws: ScriptError.self) { try fixture.require("./m") }
    }

    @Test("a symbolic link to a directory outside is refused")
    func symlinkDirectory() throws {
        let fixture = try fixture(["m.js": "module.exports = require('./out/secret');"])
        try fixture.directory.link("tasks/out", to: fixture.directory.path)
        #expect(throws: ScriptError.self) { try fixture.require("./m") }
    }

    @Test("a package.json main pointing outside the package root is refused")
    func packageMainOutside() throws {
        let fixture = try fixture([
            "node_modules/evil/package.json": #"{"main": "../../../secret.js"}"#,
            "m.js": "module.exports = require('evil');",
        ])
        #expect(throws: ScriptError.self) { try fixture.require("./m") }
    }

    @Test("a symbolic link that stays inside the root is allowed")
    func symlinkInside() throws {
        let fixture = try fixture(["real/x.js": "module.exports = 'via link';", "m.js": "module.exports = require('./alias/x');"])
        try fixture.directory.link("tasks/alias", to: fixture.directory.absolute("tasks/real"))
        #expect(try fixture.require("./m") == "via link")
    }
}

/// The real path of `path` (symbolic links resolved), as the runtime reports module paths.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
