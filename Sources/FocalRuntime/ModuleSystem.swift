import CJavaScriptCore

/// CommonJS modules for one runtime, confined to a root directory.
///
/// Each file is evaluated once and cached by its real path until ``invalidate()``;
/// a module is cached before it runs, so circular requires see partial exports, and a
/// module that throws is removed from the cache. A `.json` file is parsed as JSON.
/// Modules see `module`, `exports`, `require` (with `require.resolve`), `__filename`
/// and `__dirname`, and run in strict mode (`'use strict'` is implied). Stack traces and
/// errors name files relative to the root; `__filename`, `__dirname`, `module.filename` and
/// `require.resolve` give paths as if the root were `/` (``ModuleResolver/taskPath(_:)``),
/// which `require` takes back: no module sees where the root is on the machine.
///
/// Every module system has its own module objects and runs each file itself, so a
/// module's exports and the variables of its top level belong to one module system (one
/// session of an engine); only the compiled code is shared (see ``CompiledModules``).
public final class ModuleSystem {
    unowned let runtime: JSRuntime
    /// The files this module system loads, shared with the other module systems of its runtime.
    public let compiled: CompiledModules
    public var resolver: ModuleResolver { compiled.resolver }
    private var cache: [String: ProtectedValue] = [:]  // real path → module object
    /// The stamp of every file loaded since the last invalidation, in load order.
    public private(set) var loadedFiles: [(path: String, stamp: FileStamp?)] = []

    /// A module system on `runtime` for the files below `root`, reading the disk at every lookup.
    /// - Throws: when `root` does not exist or is not a directory.
    public convenience init(runtime: JSRuntime, root: String) throws(ScriptError) {
        self.init(compiled: try CompiledModules(runtime: runtime, root: root))
    }

    /// A module system for the files of `compiled`; module systems that pass the same
    /// `compiled` share the compiled files and what is known of the disk (their module
    /// objects stay apart).
    public init(compiled: CompiledModules) {
        self.runtime = compiled.runtime
        self.compiled = compiled
    }

    /// Requires `id` as if from a file in `directory` (the root when `nil`) and returns its exports.
    public func require(_ id: String, from directory: String? = nil) throws(ScriptError) -> ScriptValue {
        let path = try compiled.resolve(id, from: directory ?? resolver.root)
        return try load(path)
    }

    /// Loads the module at `path` (absolute and inside the root), or returns its cached exports.
    public func load(_ path: String) throws(ScriptError) -> ScriptValue {
        if let module = cache[path]?.object {
            return runtime.property(module, "exports")
        }
        let display = resolver.displayPath(path)
        let stamp = compiled.stamp(of: path)
        loadedFiles.append((path, stamp))
        guard let real = compiled.realPath(of: path), resolver.isInside(real) else {
            let reason = stamp == nil ? "no such file" : "it resolves outside the tasks directory"
            throw ScriptError(name: "Error", message: "cannot read '\(display)': \(reason)", file: display)
        }
        let module = try compiled.makeModule(path: path)
        cache[path] = runtime.protect(module)
        do throws(ScriptError) {
            if path.hasSuffix(".json") {
                let source = try readTextFile(real, displayName: display)
                guard let value = runtime.parseJSON(source) else {
                    throw ScriptError(name: "SyntaxError", message: "'\(display)' is not valid JSON", file: display)
                }
                runtime.setProperty(module, "exports", value)
                runtime.setProperty(module, "loaded", runtime.makeBoolean(true))
                return value
            }
            return try compiled.run(try compiled.function(at: real, display: display), module: module, path: path, host: requireHost())
        } catch {
            cache[path] = nil
            throw error.located(in: display)
        }
    }

    /// Forgets every cached module, so the next require evaluates files again.
    public func invalidate() {
        cache.removeAll()
        loadedFiles.removeAll()
    }

    /// Whether any loaded file changed on disk (edited, replaced or deleted) since it was loaded.
    public var hasChangedFiles: Bool {
        loadedFiles.contains { compiled.stamp(of: $0.path) != $0.stamp }
    }

    /// The loaded files (relative to the root) that changed on disk since they were loaded.
    public var changedFiles: [String] {
        loadedFiles.filter { compiled.stamp(of: $0.path) != $0.stamp }.map { resolver.displayPath($0.path) }
    }

    /// What `require(id)` and `require.resolve(id)` of every module of this system call:
    /// `host(id, directory, isResolve)`. One function for all of them, made with the first (every session makes
    /// one: it has no name, which only the module instantiator's JavaScript would see).
    private var host: ProtectedValue?

    private func requireHost() -> JSObjectRef {
        if let host { return host.value }
        let function = runtime.makeFunction(name: nil) { [unowned self] _, arguments throws(ScriptError) in
            let directory = arguments.count > 1 ? self.runtime.string(arguments[1]) : nil
            let path = try self.compiled.resolve(try self.moduleID(arguments), from: directory ?? self.resolver.root)
            let isResolve = arguments.count > 2 && JSValueToBoolean(self.runtime.context, arguments[2])
            return isResolve ? self.runtime.makeString(self.resolver.taskPath(path)) : try self.load(path)
        }
        host = runtime.protect(function)
        return function
    }

    private func moduleID(_ arguments: [JSValueRef]) throws(ScriptError) -> String {
        guard let first = arguments.first, let id = runtime.string(first) else {
            throw ScriptError(name: "TypeError", message: "require() needs a module id string")
        }
        return id
    }
}

extension ScriptError {
    /// This error with `file` set when JavaScriptCore did not report one.
    func located(in file: String) -> ScriptError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }
}
