import CJavaScriptCore

/// The compiled module functions of one runtime, shared by its module systems.
///
/// Several module systems on one runtime (one per session of an engine) evaluate the
/// same files: each file is read and compiled into its CommonJS wrapper function once,
/// and compiled again only when its stamp on disk changes. Every module system still
/// calls the function itself, so each gets its own module objects and top-level state.
public final class CompiledModules {
    unowned let runtime: JSRuntime
    private var functions: [String: (stamp: FileStamp?, function: ProtectedValue)] = [:]

    public init(runtime: JSRuntime) {
        self.runtime = runtime
    }

    /// The wrapper function `(exports, require, module, __filename, __dirname)` of the
    /// JavaScript file at `path` (a real path inside the root), named `display` in errors.
    func function(at path: String, display: String) throws(ScriptError) -> JSObjectRef {
        let stamp = FileStamp(path: path)
        if let compiled = functions[path], compiled.stamp == stamp, let function = compiled.function.object {
            return function
        }
        let source = try readTextFile(path, displayName: display)
        // The wrapper's opening stays on the first line so line numbers match the file.
        let wrapped = "(function (exports, require, module, __filename, __dirname) { " + source + "\n})"
        let value = try runtime.evaluate(wrapped, sourceURL: display)
        guard let function = runtime.object(value) else {
            throw ScriptError(name: "Error", message: "could not wrap '\(display)'", file: display)
        }
        functions[path] = (stamp, runtime.protect(function))
        return function
    }
}
