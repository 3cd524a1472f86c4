import CJavaScriptCore
import FocalJSON

/// The module files of one runtime as its module systems see them: where ids resolve,
/// what is on disk, and each file compiled once.
///
/// Several module systems on one runtime (one per session of an engine) evaluate the
/// same files: each file is read and compiled into its CommonJS wrapper function once,
/// and compiled again only when its stamp on disk changes. Every module system still
/// calls the function itself, so each gets its own module objects and top-level state.
///
/// When ``watchesFiles`` is `false`, the disk is read once per path: a file's stamp,
/// its real path and the file a `require` id resolves to are remembered, so a module
/// system that loads files already seen makes no system call. When it is `true` (hot
/// reload), every lookup reads the disk, and an edited file is compiled again.
public final class CompiledModules {
    unowned let runtime: JSRuntime
    public let resolver: ModuleResolver
    /// Whether every lookup reads the disk rather than what it read before.
    public let watchesFiles: Bool
    private var functions: [String: (stamp: FileStamp?, function: ProtectedValue)] = [:]
    /// Without ``watchesFiles``: what the disk said about each path, and where each
    /// `require` id resolved (keyed by directory and id). Op logs name namespace files,
    /// so the paths asked about are not bounded by the tasks directory: past
    /// ``fileCacheLimit`` entries a table starts afresh.
    private var files: [String: (stamp: FileStamp?, real: String?)] = [:]
    private var resolutions: [String: String] = [:]
    /// The `{ id, filename, dirname, directory }` of each path a module was made for (bounded like `files`):
    /// `filename` and `dirname` as task code sees them (``ModuleResolver/taskPath(_:)``), `directory` the real
    /// one that its `require` resolves from, which task code never sees.
    private var names: [String: ProtectedValue] = [:]
    static let fileCacheLimit = 4096
    /// Make module objects and run module functions in JavaScript, so that a module costs
    /// two calls into JavaScriptCore rather than one per property and function it needs.
    /// Both are functions (checked when they are made).
    private let makeModuleFunction: ProtectedValue
    private let runFunction: ProtectedValue

    /// - Parameters:
    ///   - runtime: the runtime whose context the modules live in.
    ///   - root: the directory module ids cannot leave.
    ///   - watchesFiles: whether every lookup reads the disk (for hot reload).
    /// - Throws: when `root` does not exist or is not a directory.
    public init(runtime: JSRuntime, root: String, watchesFiles: Bool = true) throws(ScriptError) {
        self.runtime = runtime
        self.resolver = try ModuleResolver(root: root)
        self.watchesFiles = watchesFiles
        // Made before any module of these files runs, so `Reflect.apply` is the original.
        let pair = try runtime.evaluate(Self.instantiatorSource, sourceURL: "<focal>")
        guard let array = runtime.object(pair),
            let makeModule = runtime.object(JSObjectGetPropertyAtIndex(runtime.context, array, 0, nil)),
            let run = runtime.object(JSObjectGetPropertyAtIndex(runtime.context, array, 1, nil))
        else { throw ScriptError(name: "Error", message: "could not make the module instantiator") }
        makeModuleFunction = runtime.protect(makeModule)
        runFunction = runtime.protect(run)
    }

    /// The stamp of the file at `path`, `nil` when there is none.
    public func stamp(of path: String) -> FileStamp? {
        watchesFiles ? FileStamp(path: path) : file(at: path).stamp
    }

    /// The real path of `path` (symbolic links resolved), `nil` when there is no such file.
    func realPath(of path: String) -> String? {
        watchesFiles ? FocalRuntime.realPath(path) : file(at: path).real
    }

    private func file(at path: String) -> (stamp: FileStamp?, real: String?) {
        if let known = files[path] { return known }
        if files.count >= Self.fileCacheLimit { files.removeAll() }
        let found = (FileStamp(path: path), FocalRuntime.realPath(path))
        files[path] = found
        return found
    }

    /// The real path of the file `id` names when required from `directory` (see ``ModuleResolver``).
    func resolve(_ id: String, from directory: String) throws(ScriptError) -> String {
        guard !watchesFiles else { return try resolver.resolve(id, from: directory) }
        let key = directory + "\0" + id
        if let path = resolutions[key] { return path }
        let path = try resolver.resolve(id, from: directory)
        if resolutions.count >= Self.fileCacheLimit { resolutions.removeAll() }
        resolutions[key] = path
        return path
    }

    /// A new module object `{ exports: {}, id, filename, loaded: false }` for the file at `path`.
    func makeModule(path: String) throws(ScriptError) -> JSObjectRef {
        let module = try runtime.call(makeModuleFunction.value, arguments: [names(for: path)])
        guard let object = runtime.object(module) else {
            throw ScriptError(name: "Error", message: "could not make the module of '\(resolver.displayPath(path))'")
        }
        return object
    }

    /// Runs `function` (see ``function(at:display:)``) as the module `module` of the file at
    /// `path`: `require` and `require.resolve` call `host(id, directory, isResolve)`. Returns
    /// `module.exports`, and marks the module loaded.
    func run(_ function: JSObjectRef, module: JSObjectRef, path: String, host: JSObjectRef) throws(ScriptError) -> JSValueRef {
        try runtime.call(runFunction.value, arguments: [function, module, names(for: path), host])
    }

    private func names(for path: String) -> JSValueRef {
        if let known = names[path] { return known.value }
        if names.count >= Self.fileCacheLimit { names.removeAll() }
        let object = runtime.makeValue(
            .object([
                "id": .string(resolver.displayPath(path)), "filename": .string(resolver.taskPath(path)),
                "dirname": .string(resolver.taskPath(parent(of: path))), "directory": .string(parent(of: path)),
            ]))
        names[path] = runtime.protect(object)
        return object
    }

    private static let instantiatorSource = """
        (function (apply) {
          'use strict';
          return [
            function (names) { return { exports: {}, id: names.id, filename: names.filename, loaded: false }; },
            function (fn, module, names, host) {
              const directory = names.directory;
              const require = function require(id) { return host(id, directory, false); };
              require.resolve = function resolve(id) { return host(id, directory, true); };
              apply(fn, module.exports, [module.exports, require, module, names.filename, names.dirname]);
              module.loaded = true;
              return module.exports;
            },
          ];
        })(Reflect.apply)
        """

    /// The real paths of every JavaScript file compiled so far.
    public var compiledPaths: [String] { Array(functions.keys) }

    /// The wrapper function `(exports, require, module, __filename, __dirname)` of the
    /// JavaScript file at `path` (a real path inside the root), named `display` in errors.
    func function(at path: String, display: String) throws(ScriptError) -> JSObjectRef {
        let stamp = stamp(of: path)
        if let compiled = functions[path], compiled.stamp == stamp, let function = compiled.function.object {
            return function
        }
        let source = try readTextFile(path, displayName: display)
        if sources.count >= Self.fileCacheLimit { sources.removeAll() }
        sources[display] = SourceText(source)
        // The wrapper's opening stays on the first line so line numbers match the file
        // (``locate(_:)`` takes its width out of first-line columns).
        let wrapped = Self.wrapperOpening + source + "\n})"
        let value: ScriptValue
        do throws(ScriptError) {
            value = try runtime.evaluate(wrapped, sourceURL: display)
        } catch let error where error.name == "SyntaxError" {
            throw syntaxError(error, in: source, display: display)
        }
        guard let function = runtime.object(value) else {
            throw ScriptError(name: "Error", message: "could not wrap '\(display)'", file: display)
        }
        functions[path] = (stamp, runtime.protect(function))
        return function
    }

    /// `error`, the syntax error of the wrapped file `display`, as the file as written has it: its own message and
    /// line, the column of the token the message quotes, and a word on what is wrong where JavaScriptCore says little.
    /// The thrown value says the same (its message, and its line and column as in the wrapped text, which
    /// ``locate(_:)`` maps), so a `require` that lets it through, and the task that catches it, see it too.
    ///
    /// The wrapper's own tokens would otherwise speak: its `})` is what an unclosed bracket meets (`Unexpected token
    /// '}'` in a file with no `}`), and a `}` too many closes the wrapper. Checked alone, as a strict script, the file
    /// shows its own error. A top-level `return` (valid in a module, not in a script) is blanked out for that check
    /// (``blankingReturns(onLine:of:)``); when the file's text passes it, the wrapped error is the file's own (a
    /// top-level `let exports`, say) and is kept.
    /// JavaScriptCore never gives a syntax error's column: one it has comes from the frames of a `require` running.
    private func syntaxError(_ error: ScriptError, in source: String, display: String) -> ScriptError {
        var error = error
        var checkedSource = "'use strict'; " + source
        for _ in 0..<16 {
            do throws(ScriptError) {
                try runtime.checkSyntax(checkedSource, sourceURL: display)
            } catch let checked {
                if checked.message.hasPrefix("Return statements"), let line = checked.line,
                    let blanked = Self.blankingReturns(onLine: line, of: checkedSource)
                {
                    checkedSource = blanked
                    continue
                }
                (error.message, error.line) = (checked.message, checked.line)
            }
            break
        }
        let text = SourceText(source)
        let line = min(max(error.line ?? 1, 1), text.lineCount)
        let excerpt = text.line(line) ?? ""
        let statement = excerpt.drop { $0 == " " || $0 == "\t" }
        var column: Int?
        if statement.hasPrefix("import ") || statement.hasPrefix("import{") || statement.hasPrefix("export ") {
            error.message = "ES modules are not supported; use require() and module.exports (\(error.message))"
            column = excerpt.utf16.count - statement.utf16.count + 1
        } else if error.message == "Unexpected end of script" {
            error.message += " (at the end of the file: a bracket, brace or parenthesis is not closed)"
            column = excerpt.utf16.count + 1
        } else if error.message == "Parser error", excerpt.filter({ $0 == "}" }).count == 1 {
            error.message = "Unexpected token '}': it closes no open brace"
            column = Self.column(ofTokenIn: error.message, on: excerpt)
        } else {
            column = Self.column(ofTokenIn: error.message, on: excerpt)
        }
        error.line = line
        error.column = column.map { line == 1 ? $0 + Self.wrapperOpening.utf16.count : $0 }
        guard let thrown = runtime.lastException?.value, let object = runtime.object(thrown.value) else { return error }
        runtime.setProperty(object, "message", runtime.makeString(error.message))
        runtime.setProperty(object, "line", runtime.makeNumber(Double(line)))
        runtime.setProperty(object, "column", error.column.map { runtime.makeNumber(Double($0)) } ?? runtime.undefined)
        return runtime.remember(thrown.value)
    }

    /// `text` with every `return` keyword on its 1-based line `number` turned into spaces (positions unchanged), or
    /// `nil` when that line has none. Lines end as JavaScript's do: at `\n`, `\r\n` or `\r`.
    static func blankingReturns(onLine number: Int, of text: String) -> String? {
        var bytes = Array(text.utf8)
        var start = 0
        var line = 1
        while line < number, start < bytes.count {
            if bytes[start] == 0x0A || bytes[start] == 0x0D {
                if bytes[start] == 0x0D, start + 1 < bytes.count, bytes[start + 1] == 0x0A { start += 1 }
                line += 1
            }
            start += 1
        }
        let end = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        func isIdentifier(_ byte: UInt8) -> Bool {
            byte == 0x24 || byte == 0x5F || byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte)
        }
        let keyword = Array("return".utf8)
        var blanked = false
        var index = start
        while index + keyword.count <= end {
            if bytes[index..<(index + keyword.count)].elementsEqual(keyword), index == start || !isIdentifier(bytes[index - 1]),
                index + keyword.count == end || !isIdentifier(bytes[index + keyword.count])
            {
                bytes.replaceSubrange(index..<(index + keyword.count), with: repeatElement(0x20, count: keyword.count))
                blanked = true
            }
            index += 1
        }
        return blanked ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The column of the token a syntax error message quotes (`Unexpected token ')'`,
    /// `Unexpected identifier 'x'`) on `line`, when it occurs there exactly once.
    static func column(ofTokenIn message: String, on line: String) -> Int? {
        guard let open = message.firstIndex(of: "'") else { return nil }
        let rest = message[message.index(after: open)...]
        guard let close = rest.firstIndex(of: "'"), close > rest.startIndex else { return nil }
        let token = Array(rest[..<close].utf16)
        let text = Array(line.utf16)
        guard token.count <= text.count else { return nil }
        let starts = (0...(text.count - token.count)).filter { text[$0..<($0 + token.count)].elementsEqual(token) }
        return starts.count == 1 ? starts[0] + 1 : nil
    }

    /// The text before a module file's first character when it is compiled. Its directive
    /// makes every module strict: an assignment to an undeclared name is a `ReferenceError`
    /// at its line, not a global that other sessions of the runtime would see.
    static let wrapperOpening = "(function (exports, require, module, __filename, __dirname) { 'use strict'; "

    /// The text of each module file as last compiled, by display path (for ``locate(_:)``).
    private var sources: [String: SourceText] = [:]

    /// `error` with its positions in the files as written: the wrapper's opening taken out
    /// of first-line columns, a position in the wrapper's closing moved to the end of the
    /// file, the source line as ``ScriptError/excerpt``, and only the frames that are in
    /// module files (a syntax error was made the file's own when it was compiled). An error raised
    /// in code that is not a module file's (the host's own JavaScript, such as a node member the
    /// task called) is placed where the innermost module frame called it. An assignment to an
    /// undeclared name (`count = 1`) gets a hint: declare it with a top-level `let`.
    /// Locating an error twice changes nothing.
    public func locate(_ error: ScriptError) -> ScriptError {
        guard !error.isLocated else { return error }
        var error = error
        error.isLocated = true
        if error.file.map({ sources[$0] == nil }) ?? true, let caller = error.frames.first(where: { sources[$0.file] != nil }) {
            (error.file, error.line, error.column) = (caller.file, caller.line, caller.column)
        }
        error.frames = error.frames.compactMap { frame in
            guard let source = sources[frame.file] else { return nil }
            var frame = frame
            let position = source.position(line: frame.line, column: frame.column ?? 1)
            (frame.line, frame.column) = (position.line, frame.column.map { _ in position.column })
            return frame
        }
        guard let file = error.file, let source = sources[file], let line = error.line else { return error }
        let atEnd = line > source.lineCount
        let position = source.position(line: line, column: error.column ?? 1)
        error.line = position.line
        error.excerpt = source.line(position.line)
        if error.column != nil || atEnd { error.column = position.column }
        return error.hintingUndeclaredAssignment()
    }
}

/// A module file's text split into lines, for positions and excerpts.
struct SourceText {
    private let lines: [Substring]

    init(_ text: String) {
        // As JavaScript counts lines: "\r\n" is one Character, and a lone "\r" ends a line too.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        self.lines = lines
    }

    var lineCount: Int { lines.count }

    /// The 1-based line `number` without its line break.
    func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        return String(lines[number - 1])
    }

    /// A position in the wrapped text as a position in the file: the wrapper's opening is
    /// taken out of line 1, and the wrapper's closing (past the last line) is the end of the file.
    func position(line: Int, column: Int) -> (line: Int, column: Int) {
        if line > lines.count {
            return (max(lines.count, 1), (self.line(lines.count)?.utf16.count ?? 0) + 1)
        }
        if line == 1 { return (1, max(column - CompiledModules.wrapperOpening.utf16.count, 1)) }
        return (line, column)
    }
}
