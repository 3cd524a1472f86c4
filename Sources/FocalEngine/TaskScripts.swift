import FocalPatterns
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
    /// The `match` function tasks call while a task file is being evaluated (the global
    /// `match` is `undefined` at any other time; a saved reference throws when called).
    private(set) var match: ProtectedValue!
    /// Wraps a task function so that one call into JavaScript runs the task and turns
    /// its results into JSON texts, one per line (`undefined` for none; see ``jsonWrapperSource``).
    private var jsonWrapper: ProtectedValue!
    /// The task files and modules, compiled once for every session. Without hot reload
    /// the disk is read once per file, so starting a session makes no system call.
    let modules: CompiledModules
    /// The library whose task file is being evaluated, which `match` adds tasks to.
    var loading: TaskLibrary? {
        didSet { isLoading[0] = loading == nil ? 0 : 1 }
    }
    /// `[0]` is 1 while a task file is being evaluated (``loading`` is set), 0 otherwise: the global `match`
    /// reads it rather than asking host code at every use of the name.
    private let isLoading: SharedNumbers
    /// Where registered and matched patterns are noted, for `focal check --against`.
    var coverage: PatternCoverage?
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

    /// Where the wrapper hands a result's text when it is short and ASCII (returning `null`): read without a
    /// call into JavaScriptCore (see ``FocalRuntime/SharedText``).
    let handedText: SharedText
    /// The longest text handed through ``handedText``, in bytes; a longer one is returned as a string.
    static let handedTextCapacity = 1024

    /// `Date` and `Math.random` as each session's ops set them: the same log gives the same results.
    let builtins: ReplayableBuiltins

    /// The name of the error the wrapper throws when a result is not JSON.
    static let nonJSONErrorName = "FocalNonJSONResult"

    /// - Parameters:
    ///   - watchesFiles: whether task files are looked up on disk at every use (hot reload).
    ///   - enter: the function a task's wrapper calls first, with all its arguments
    ///     (``NodeBinding/enter``); the task function then gets the node it returns.
    /// - Throws: when the tasks directory does not exist.
    init(runtime: JSRuntime, tasksDirectory: String, watchesFiles: Bool, enter: ProtectedValue) throws(ScriptError) {
        self.runtime = runtime
        modules = try CompiledModules(runtime: runtime, root: tasksDirectory, watchesFiles: watchesFiles)
        handedText = try SharedText(capacity: Self.handedTextCapacity, in: runtime)
        isLoading = try SharedNumbers(count: 1, in: runtime)
        builtins = try ReplayableBuiltins(in: runtime)
        let wrapperFactory = try runtime.evaluate(Self.jsonWrapperSource, sourceURL: "<focal>")
        let note = runtime.makeFunction(name: "note") { [unowned self] _, arguments throws(ScriptError) in
            let texts = arguments.map { self.runtime.string($0) ?? "" }
            // Called from a task, so inside an entry into the runtime, on the thread that holds it.
            assert(self.runtime.confinement.isHeldByCurrentThread, "a task's note outside its engine's thread")
            self.pendingNote = ResultNote(what: texts.first ?? "", written: texts.count > 1 ? texts[1] : "")
            return nil
        }
        guard let factory = runtime.object(wrapperFactory),
            let pair = runtime.object(
                try runtime.call(factory, arguments: [note, enter.value, handedText.bytes.value, handedText.length.array.value])),
            let wrap = runtime.object(runtime.element(pair, at: 0)),
            let results = runtime.object(runtime.element(pair, at: 1))
        else { throw ScriptError(name: "Error", message: "could not make the task wrapper") }
        jsonWrapper = runtime.protect(wrap)
        runtime.setGlobal("results", results)
        match = try makeMatch()
        try defineMatchGlobal()
    }

    /// Defines the global `match` as a getter that gives the `match` function while a task
    /// file is being evaluated and `undefined` otherwise: the global object is frozen once
    /// the engine starts (see ``Engine``), so `match` cannot come and go as a property.
    private func defineMatchGlobal() throws(ScriptError) {
        let source = """
            (function (isLoading, matchFunction) {
              'use strict';
              Object.defineProperty(globalThis, 'match', {
                get: function match() { return isLoading[0] === 1 ? matchFunction : undefined; },
                enumerable: false, configurable: false,
              });
            })
            """
        guard let define = runtime.object(try runtime.evaluate(source, sourceURL: "<focal>")) else {
            throw ScriptError(name: "Error", message: "could not define match()")
        }
        _ = try runtime.call(define, arguments: [isLoading.array.value, match.value])
    }

    /// What the wrapper noticed about the last result it wrote (a `Map` written as `{}`,
    /// `null` from `x && {…}`), for a warning; `nil` for most results. The caller takes it
    /// after each call; only a short result text (under six characters) is looked at. Read after
    /// every task call on the engine's thread, to which the scripts are confined: it opts out of the
    /// runtime's exclusivity checks.
    @exclusivity(unchecked) var pendingNote: ResultNote?

    /// A result written, but probably not what the task meant.
    struct ResultNote: Hashable {
        /// What the task returned: `a Map`, `null`, `NaN`…
        var what: String
        /// The JSON text written for it.
        var written: String
    }

    /// The warnings already given, so that each is given once per engine (bounded).
    private var warned: Set<String> = []

    /// Whether the warning `key` is new (and remembers it).
    func firstWarning(_ key: String) -> Bool {
        if warned.count >= Self.parseCacheLimit { return false }
        return warned.insert(key).inserted
    }

    /// The wrapper's source: a factory that takes `note`, `enter` and the arrays of ``handedText`` and returns
    /// `[wrap, results]`. `wrap(fn)` is the task function that enters the dispatch its arguments describe
    /// (``NodeBinding/beginDispatch(_:)``), calls `fn` with the node and gives the JSON text of its result, the texts
    /// of `results([…])` one per line (compact JSON text holds no line break): written to ``handedText`` when it is
    /// ASCII and fits, returning `null`, or returned as a string (copied out in a call). It returns `undefined` for
    /// no result. The engine tells `null` and `undefined` without a call. `results` is the global of that name.
    private static let jsonWrapperSource = """
        (function (stringify, getPrototypeOf, objectPrototype, freeze, isArray, apply, isPrototypeOf, promisePrototype) {
          'use strict';
          function fail(message) { const e = new TypeError(message); e.name = '\(nonJSONErrorName)'; throw e; }
          // A Proxy's getPrototypeOf trap may throw: such a value is no Promise.
          function isPromise(value) { try { return apply(isPrototypeOf, promisePrototype, [value]); } catch (_) { return false; } }
          return function (note, enter, bytes, length) {
            const capacity = bytes.length;
            // The text in `bytes` (returning null) when every character is one byte of UTF-8 and it fits;
            // otherwise the text itself.
            function hand(text) {
              const count = text.length;
              if (count > capacity) return text;
              for (let i = 0; i < count; i++) {
                const c = text.charCodeAt(i);
                if (c > 0x7f) return text;
                bytes[i] = c;
              }
              length[0] = count;
              return null;
            }
            // Short texts only: '{}' from a Map, Set or class instance; 'null' and
            // 'false' from `x && {…}`; 'null' from NaN or Infinity.
            function look(result, text) {
              if (text === '{}') {
                const prototype = getPrototypeOf(result);
                if (prototype === objectPrototype || prototype === null) return;
                const constructor = prototype.constructor;
                const name = typeof constructor === 'function' && typeof constructor.name === 'string' && constructor.name ? constructor.name : 'object';
                note('a ' + name, text);
              } else if (text === 'null' || text === 'false') {
                note(typeof result === 'number' ? String(result) : text, text);
              }
            }
            function json(value) {
              if (typeof value === 'function' || typeof value === 'symbol') fail('a ' + typeof value + ' is not a JSON value');
              let text;
              try { text = stringify(value); } catch (e) { fail(e.message); }
              if (typeof text !== 'string') fail(String(value) + ' is not a JSON value');
              return text;
            }
            // The values of the `results([…])` being written: its toJSON leaves them here.
            let many;
            function results(values) {
              if (!isArray(values)) throw new TypeError('results() needs an array of results');
              const copy = values.slice();
              return freeze({ toJSON() { many = copy; return null; } });
            }
            function wrap(fn) {
              return function (latestEvent, firstDisplayedEvent, a0, b0, a1, b1, a2, b2) {
                const result = fn(enter(latestEvent, firstDisplayedEvent, a0, b0, a1, b1, a2, b2));
                if (result === undefined) return undefined;
                many = undefined;
                const text = json(result);
                if (many !== undefined) {
                  const values = many;
                  many = undefined;
                  if (text !== 'null') fail('results([…]) must be what the task returns, not a part of its result');
                  let texts = '';
                  for (let i = 0; i < values.length; i++) {
                    const value = values[i];
                    if (value === undefined) continue;
                    many = undefined;
                    const one = json(value);
                    if (many !== undefined) fail('results([…]) cannot hold results([…])');
                    texts = texts === '' ? one : texts + '\\n' + one;
                  }
                  return hand(texts);
                }
                // A Promise is never awaited: what it would give is not the '{}' written for it.
                if (text === '{}' && isPromise(result)) {
                  fail('a Promise is not a result: tasks run synchronously and a Promise is never awaited; '
                    + 'return the result itself (an async function always returns a Promise)');
                }
                // A warning never fails a result (a Proxy's getPrototypeOf trap may throw).
                if (text.length < 6) { try { look(result, text); } catch (_) {} }
                return hand(text);
              };
            }
            return [wrap, results];
          };
        })(JSON.stringify, Object.getPrototypeOf, Object.prototype, Object.freeze, Array.isArray, Reflect.apply,
           Object.prototype.isPrototypeOf, Promise.prototype)
        """

    /// `fn` wrapped so that calling it returns the JSON texts of its results, one per line.
    func wrap(_ function: ScriptValue) throws(ScriptError) -> ProtectedValue {
        guard let wrap = jsonWrapper.object else {
            throw ScriptError(name: "Error", message: "the task wrapper is gone")
        }
        return runtime.protect(try runtime.call(wrap, arguments: [function]))
    }

    /// The automaton for tasks with these patterns (in load order), compiled once.
    func automaton(for patterns: [[TaskPattern]]) -> MatchAutomaton {
        if patterns.isEmpty { return noTasksAutomaton }
        // Sessions mostly load what the one before loaded: comparing with its patterns, whose strings and arrays
        // are the same storage, costs a fraction of hashing them.
        if let last = lastAutomaton, last.patterns == patterns { return last.automaton }
        let automaton = automata[patterns] ?? makeAutomaton(for: patterns)
        lastAutomaton = (patterns, automaton)
        return automaton
    }

    /// The automaton of a session before it loads a task (each session starts with it).
    private lazy var noTasksAutomaton = MatchAutomaton(patterns: [])

    /// The automaton ``automaton(for:)`` gave last for some tasks, and their patterns.
    private var lastAutomaton: (patterns: [[TaskPattern]], automaton: MatchAutomaton)?

    private func makeAutomaton(for patterns: [[TaskPattern]]) -> MatchAutomaton {
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

    /// A `match` call registered before, with a string pattern, from a call site that its stack names: every
    /// session that evaluates the same task file makes it again.
    struct KnownMatch {
        let pattern: TaskPattern
        let reference: TaskReference
    }

    /// The `match` calls registered so far (see ``KnownMatch``), in the order first seen. `match` finds a call it
    /// saw before in a JavaScript map of its own, by its pattern and the caller's stack, and passes only the index
    /// here: a session's start then converts no string, parses no stack and looks up no pattern (each ~1,000
    /// instructions or more, a cycle of the VM's lock apiece). Append-only and bounded: past ``parseCacheLimit``
    /// calls, new ones are not remembered, so an index never changes.
    private var knownMatches: [KnownMatch] = []

    /// Remembers a `match` call registered with a string pattern and a known call site; returns its index, or
    /// `nil` once ``parseCacheLimit`` calls are remembered.
    func remember(_ match: KnownMatch) -> Int? {
        guard knownMatches.count < Self.parseCacheLimit else { return nil }
        knownMatches.append(match)
        return knownMatches.count - 1
    }

    /// `match(pattern, fn)`: a JavaScript wrapper that passes the caller's stack to Swift,
    /// so each task knows the file and line of its `match` call; a call it passed before (the same pattern
    /// string and stack) is passed as the index of the ``KnownMatch`` the first made.
    private func makeMatch() throws(ScriptError) -> ProtectedValue {
        func loadingLibrary() throws(ScriptError) -> TaskLibrary {
            guard let loading else {
                throw ScriptError(name: "Error", message: "match() can only be called while a task file is being evaluated")
            }
            return loading
        }
        let native = runtime.makeFunction(name: "match") { [unowned self] _, arguments throws(ScriptError) in
            try loadingLibrary().match(arguments).map { self.runtime.makeNumber(Double($0)) }
        }
        let known = runtime.makeFunction(name: nil) { [unowned self] _, arguments throws(ScriptError) in
            let library = try loadingLibrary()
            guard arguments.count == 2, let number = runtime.number(arguments[0]), let index = Int(exactly: number),
                knownMatches.indices.contains(index)
            else { throw ScriptError(name: "Error", message: "match() lost track of a call it made before") }
            library.match(knownMatches[index], function: arguments[1])
            return nil
        }
        // The map's key puts the pattern's length first, so that no pattern and stack spell another's.
        let source = """
            (function (native, known) {
              'use strict';
              const sites = new Map();
              return function match(pattern, fn) {
                const stack = new Error().stack;
                if (typeof pattern !== 'string' || typeof fn !== 'function') { native(pattern, fn, stack); return; }
                const site = pattern.length + ':' + pattern + stack;
                const index = sites.get(site);
                if (index !== undefined) { known(index, fn); return; }
                const made = native(pattern, fn, stack);
                if (made !== undefined) sites.set(site, made);
              };
            })
            """
        guard let factory = runtime.object(try runtime.evaluate(source, sourceURL: "<focal>")) else {
            throw ScriptError(name: "Error", message: "could not make match()")
        }
        return runtime.protect(try runtime.call(factory, arguments: [native, known]))
    }
}
