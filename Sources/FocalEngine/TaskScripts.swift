import FocalPatterns
import CJavaScriptCore
import FocalRuntime

/// What every session of an engine shares in its JavaScript virtual machine: the `match`
/// function, the wrapper that turns a task's result into JSON text, the task files
/// (resolved and compiled once) and the compiled pattern automata.
///
/// Both functions are made when the engine starts, before any task code runs, so a task
/// cannot replace what they call: the wrapper holds the original `JSON.stringify`, and
/// the text it returns is what Focal writes.
final class TaskScripts {
    let runtime: JSRuntime
    /// The `match` function tasks call while a task file is being evaluated.
    private(set) var match: ProtectedValue!
    /// Wraps a task function so that one call into JavaScript runs the task and turns
    /// its result into JSON text (or `undefined`).
    private var jsonWrapper: ProtectedValue!
    /// The task files and modules, compiled once for every session. Without hot reload
    /// the disk is read once per file, so starting a session makes no system call.
    let modules: CompiledModules
    /// The library whose task file is being evaluated, which `match` adds tasks to.
    var loading: TaskLibrary?
    /// Automata by the patterns they were compiled from: sessions that loaded the same
    /// tasks share one.
    private var automata: [[[TaskPattern]]: MatchAutomaton] = [:]
    /// How many automata are kept; past this (debug reloads, tasks that register
    /// patterns conditionally) the cache starts afresh.
    static let automatonCacheLimit = 64

    /// `match` calls already parsed: every session evaluates the same task files, so each
    /// call site and pattern is parsed once per engine. Bounded like the automata.
    private var callSites: [String: (file: String, line: Int)?] = [:]
    private var patterns: [String: Result<TaskPattern, PatternSyntaxError>] = [:]
    private var namespaceFiles: [String: Result<String, EngineError>] = [:]
    static let parseCacheLimit = 4096

    /// The name of the error the wrapper throws when a result is not JSON.
    static let nonJSONErrorName = "FocalNonJSONResult"

    /// - Parameter watchesFiles: whether task files are looked up on disk at every use (hot reload).
    /// - Throws: when the tasks directory does not exist.
    init(runtime: JSRuntime, tasksDirectory: String, watchesFiles: Bool) throws(ScriptError) {
        self.runtime = runtime
        modules = try CompiledModules(runtime: runtime, root: tasksDirectory, watchesFiles: watchesFiles)
        let wrapperFactory = try runtime.evaluate(Self.jsonWrapperSource, sourceURL: "<focal>")
        jsonWrapper = runtime.protect(wrapperFactory)
        match = try makeMatch()
    }

    private static let jsonWrapperSource = """
        (function (stringify) {
          function fail(message) { const e = new TypeError(message); e.name = '\(nonJSONErrorName)'; throw e; }
          return function (fn) {
            return function (node) {
              const result = fn(node);
              if (result === undefined) return undefined;
              if (typeof result === 'function' || typeof result === 'symbol') fail('a ' + typeof result + ' is not a JSON value');
              let text;
              try { text = stringify(result); } catch (e) { fail(e.message); }
              if (typeof text !== 'string') fail(String(result) + ' is not a JSON value');
              return text;
            };
          };
        })(JSON.stringify)
        """

    /// `fn` wrapped so that calling it returns the JSON text of its result.
    func wrap(_ function: JSValueRef) throws(ScriptError) -> ProtectedValue {
        guard let wrap = jsonWrapper.object else {
            throw ScriptError(name: "Error", message: "the task wrapper is gone")
        }
        return runtime.protect(try runtime.call(wrap, arguments: [function]))
    }

    /// The automaton for tasks with these patterns (in load order), compiled once.
    func automaton(for patterns: [[TaskPattern]]) -> MatchAutomaton {
        if let automaton = automata[patterns] { return automaton }
        if automata.count >= Self.automatonCacheLimit { automata.removeAll() }
        let automaton = MatchAutomaton(patterns: patterns)
        automata[patterns] = automaton
        return automaton
    }

    /// The parsed pattern `text`.
    func pattern(_ text: String) throws(PatternSyntaxError) -> TaskPattern {
        if let parsed = patterns[text] { return try parsed.get() }
        if patterns.count >= Self.parseCacheLimit { patterns.removeAll() }
        let parsed = Result { () throws(PatternSyntaxError) in try TaskPattern(text) }
        patterns[text] = parsed
        return try parsed.get()
    }

    /// The task file of `namespace` (see ``TaskLibrary/file(forNamespace:)``), worked out
    /// once per engine: every session names its namespaces again.
    func file(forNamespace namespace: String) -> Result<String, EngineError> {
        if let file = namespaceFiles[namespace] { return file }
        if namespaceFiles.count >= Self.parseCacheLimit { namespaceFiles.removeAll() }
        let file = TaskLibrary.file(forNamespace: namespace)
        namespaceFiles[namespace] = file
        return file
    }

    /// The file and line of the frame that called `match`, from an `Error().stack`.
    func callSite(_ stack: String) -> (file: String, line: Int)? {
        if let site = callSites[stack] { return site }
        if callSites.count >= Self.parseCacheLimit { callSites.removeAll() }
        let site = Self.parseCallSite(stack)
        callSites[stack] = site
        return site
    }

    private static func parseCallSite(_ stack: String) -> (file: String, line: Int)? {
        // Frames look like `name@file:line:column`; the first is the wrapper itself.
        for frame in stack.split(separator: "\n").dropFirst() {
            var parts = frame.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, Int(parts.removeLast()) != nil, let line = Int(parts.removeLast()) else { continue }
            var location = parts.joined(separator: ":")
            if let at = location.firstIndex(of: "@") { location = String(location[location.index(after: at)...]) }
            guard !location.hasPrefix("<") else { continue }
            return (location, line)
        }
        return nil
    }

    /// `match(pattern, fn)`: a JavaScript wrapper that passes the caller's stack to Swift,
    /// so each task knows the file and line of its `match` call.
    private func makeMatch() throws(ScriptError) -> ProtectedValue {
        let native = runtime.makeFunction(name: "match") { [unowned self] _, arguments throws(ScriptError) in
            guard let loading = self.loading else {
                throw ScriptError(name: "Error", message: "match() can only be called while a task file is being evaluated")
            }
            loading.match(arguments)
            return nil
        }
        let source = "(function (native) { return function match(pattern, fn) { native(pattern, fn, new Error().stack); }; })"
        guard let factory = runtime.object(try runtime.evaluate(source, sourceURL: "<focal>")) else {
            throw ScriptError(name: "Error", message: "could not make match()")
        }
        return runtime.protect(try runtime.call(factory, arguments: [native]))
    }
}
