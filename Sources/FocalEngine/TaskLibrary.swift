import FocalJSON
import FocalPatterns
import FocalRuntime

/// The tasks one session loaded from the tasks directory, and the loading itself.
///
/// Every session evaluates the task files itself, so a task file's top-level variables
/// belong to the session; the `match` function and the result wrapper are the engine's
/// (see ``TaskScripts``).
///
/// `index.js` and namespace files (`A.B` → `A/B.js`) are evaluated as strict CommonJS
/// modules with a global `match` that exists only while a task file is being evaluated. A
/// missing file is normal and silent; a file that fails keeps the tasks it registered
/// before failing, and the failure is reported with file and line. Each bad `match`
/// call is reported and skipped, so one evaluation reports every bad pattern.
final class TaskLibrary {
    let runtime: JSRuntime
    let modules: ModuleSystem
    private let scripts: TaskScripts
    /// Tasks in load order (read for every task call: confined to the engine's thread, it opts out of the
    /// runtime's exclusivity checks).
    @exclusivity(unchecked) private(set) var tasks: [Task] = []
    /// Task files (relative to the tasks directory) in the order they were first asked for.
    private var files: [String] = []
    private var requested: Set<String> = []
    private var loading: String?
    private var nextOrder = 0
    /// Receives every error found while loading.
    var report: (EngineError) -> Void = { _ in }

    init(scripts: TaskScripts) {
        self.runtime = scripts.runtime
        self.scripts = scripts
        self.modules = ModuleSystem(compiled: scripts.modules)
    }

    /// The patterns of every task, in load order (what the automaton is built from).
    var patterns: [[TaskPattern]] { tasks.map(\.patterns) }

    /// The task file for a namespace (`Detail.ViewController` is `Detail/ViewController.js`),
    /// or an error when the namespace is invalid: it must be names separated by single dots,
    /// without `/`, `\` or a control character (U+0000–U+001F, U+007F). A NUL would cut the
    /// path short where the file system reads it (`A\u0000x` would load `A.js`), and the
    /// others would name a file outside the namespace's place or could not be printed.
    static func file(forNamespace namespace: String) -> Result<String, EngineError> {
        let bytes = namespace.utf8
        let dot: UInt8 = 0x2E
        let hasEmptyName = bytes.first == dot || bytes.last == dot || zip(bytes, bytes.dropFirst()).contains { $0 == dot && $1 == dot }
        let hasForbiddenByte = bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0x2F || $0 == 0x5C }
        guard !bytes.isEmpty, !hasEmptyName, !hasForbiddenByte else {
            return .failure(
                EngineError(
                    .invalidOp,
                    """
                    invalid namespace \(JSONValue.string(namespace).jsonString): it must be names separated by single dots, \
                    without '/', '\\' or control characters
                    """))
        }
        return .success(String(decoding: bytes.map { $0 == dot ? 0x2F : $0 }, as: UTF8.self) + ".js")
    }

    /// Whether `file` (relative to the tasks directory) was asked for, so that ``loadOnce(_:line:)``
    /// would evaluate nothing.
    func hasRequested(_ file: String) -> Bool { requested.contains(file) }

    /// Evaluates `file` (relative to the tasks directory) unless it was asked for before.
    /// Returns whether the set of tasks changed.
    func loadOnce(_ file: String, line: Int?) -> Bool {
        guard requested.insert(file).inserted else { return false }
        files.append(file)
        return evaluate(file, line: line)
    }

    /// In debug mode: when a loaded file changed on disk, or a task file that was missing
    /// now exists, forgets every module and task and evaluates the task files again in
    /// their original order. Returns the files that changed or appeared (empty when
    /// nothing was reloaded).
    func reloadIfChanged(line: Int?) -> [String] {
        let appeared = files.filter { file in
            let path = modules.resolver.absolutePath(file)
            return !modules.loadedFiles.contains { $0.path == path } && modules.compiled.stamp(of: path) != nil
        }
        let changed = appeared + modules.changedFiles
        guard !changed.isEmpty else { return [] }
        modules.invalidate()
        assert(runtime.confinement.isFreeForCurrentThread, "tasks reloaded while another thread is inside the engine")
        tasks.removeAll()
        for file in files { _ = evaluate(file, line: line) }
        return changed
    }

    /// Whether `file` (relative to the tasks directory) exists and was evaluated.
    func hasLoaded(_ file: String) -> Bool {
        let path = modules.resolver.absolutePath(file)
        return modules.loadedFiles.contains { $0.path == path }
    }

    /// Evaluates every `.js` file outside `node_modules` as a task file (for `focal check`).
    func loadAll(_ files: [String]) {
        for file in files { _ = loadOnce(file, line: nil) }
    }

    private func evaluate(_ file: String, line: Int?) -> Bool {
        let path = modules.resolver.absolutePath(file)
        guard modules.compiled.stamp(of: path) != nil else { return false }
        assert(runtime.confinement.isFreeForCurrentThread, "tasks loaded while another thread is inside the engine")
        let before = tasks.count
        loading = file
        scripts.loading = self
        defer {
            scripts.loading = nil
            loading = nil
        }
        do throws(ScriptError) {
            _ = try modules.load(path)
        } catch {
            // Positions in the files as written (the error itself is rethrown through
            // `require` unchanged, as the original JavaScript value).
            let error = modules.compiled.locate(error)
            report(EngineError(.taskFileFailed, "task file '\(file)' failed to load: \(error)", line: line, script: error))
        }
        return tasks.count != before
    }

    /// One `match(pattern, fn, stack)` call from the file being evaluated: adds a task, or
    /// reports what is wrong with the call. Returns the index of the call among the scripts' known ones
    /// (``TaskScripts/remember(_:)``) when its pattern is one string and its call site is known.
    func match(_ arguments: [ScriptValue]) -> Int? {
        guard let loading else { return nil }
        let site = arguments.count > 2 ? scripts.callSite(runtime.describe(arguments[2])) : nil
        let file = site?.file ?? loading
        func reject(_ message: String) -> Int? {
            reportBadMatch(message, file: file, line: site?.line)
            return nil
        }
        var texts: [String] = []
        var isOneString = false
        if let first = arguments.first, let text = runtime.string(first) {
            texts = [text]
            isOneString = true
        } else if let first = arguments.first, let array = runtime.object(first), runtime.isArray(first) {
            let count = Int(runtime.number(runtime.property(array, "length")) ?? 0)
            for i in 0..<count {
                let element = runtime.element(array, at: i)
                guard let text = runtime.string(element) else {
                    return reject("pattern \(i) of the array is not a string")
                }
                texts.append(text)
            }
            guard !texts.isEmpty else { return reject("the pattern array is empty") }
        } else {
            return reject("the first argument must be a pattern string or an array of pattern strings")
        }
        var patterns: [TaskPattern] = []
        for text in texts {
            do throws(PatternSyntaxError) {
                patterns.append(try scripts.pattern(text))
            } catch {
                return reject(error.message)
            }
        }
        guard arguments.count > 1, runtime.isFunction(arguments[1]) else {
            return reject("the second argument must be a function (node) => result")
        }
        let reference = TaskReference(patterns: texts, file: file, line: site?.line)
        guard add(patterns, reference, function: arguments[1]) else { return nil }
        guard isOneString, site != nil else { return nil }
        return scripts.remember(TaskScripts.KnownMatch(pattern: patterns[0], reference: reference))
    }

    /// A `match` call made before (see ``TaskScripts/KnownMatch``), with this call's task `function`.
    func match(_ known: TaskScripts.KnownMatch, function: ScriptValue) {
        add([known.pattern], known.reference, function: function)
    }

    /// Adds the task of a checked `match` call; reports the call and returns `false` when its function cannot be
    /// wrapped.
    @discardableResult
    private func add(_ patterns: [TaskPattern], _ reference: TaskReference, function: ScriptValue) -> Bool {
        let wrapped: ProtectedValue
        do throws(ScriptError) {
            wrapped = try scripts.wrap(function)
        } catch {
            reportBadMatch("the task function could not be prepared: \(error)", file: reference.file, line: reference.line)
            return false
        }
        scripts.coverage?.register(reference)
        // Called by `match` from the file being evaluated: inside an entry into the runtime, on the thread that holds it.
        assert(runtime.confinement.isHeldByCurrentThread, "a task registered outside its engine's thread")
        tasks.append(Task(order: nextOrder, patterns: patterns, function: wrapped, reference: reference))
        nextOrder += 1
        return true
    }

    /// Reports a `match` call that adds no task, at `file:line`.
    private func reportBadMatch(_ message: String, file: String, line: Int?) {
        let location = line.map { "\(file):\($0)" } ?? file
        report(
            EngineError(
                .taskFileFailed, "\(location): bad match(): \(message)",
                script: ScriptError(name: "TypeError", message: message, file: file, line: line)))
    }
}
