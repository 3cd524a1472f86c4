#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CJavaScriptCore
import FocalJSON
import Synchronization

/// One JavaScriptCore virtual machine and global context.
///
/// A runtime is **confined**: it is not `Sendable`, and every call must come from the
/// executor that owns it (an actor, or one thread). Separate runtimes share nothing,
/// each has its own context group, so many of them can run in parallel on all cores.
///
/// Every entry into JavaScript (``evaluate(_:sourceURL:startingLine:)`` and
/// ``call(_:this:arguments:)``) is bounded by ``timeLimit``: a script that runs longer
/// is terminated and reported as a ``ScriptError`` whose `isTimeout` is true, and the
/// runtime stays usable.
public final class JSRuntime {
    /// The global context. Use it with the JavaScriptCore C API for bindings this type
    /// does not wrap; never let values escape to another runtime.
    public let context: JSGlobalContextRef
    let group: JSContextGroupRef
    let names = PropertyNames()
    /// Set by the watchdog when it terminates a script, so a termination that no
    /// exception reports (a promise job drained after the call returned) is still seen.
    private let terminated = TerminationFlag()

    /// The longest a single call into JavaScript may run.
    public var timeLimit: Duration {
        didSet { applyTimeLimit() }
    }

    /// Creates a runtime.
    /// - Parameters:
    ///   - timeLimit: the limit for each evaluation or call.
    ///   - globalObjectClass: an optional class for the global object, so host code can
    ///     keep private data on it (see `JSObjectGetPrivate`).
    public init(timeLimit: Duration = .seconds(1), globalObjectClass: JSClassRef? = nil) {
        _ = Self.processSetup
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, globalObjectClass)
        self.timeLimit = timeLimit
        applyTimeLimit()
    }

    /// Options JavaScriptCore reads once, when the first virtual machine is created.
    ///
    /// The time limit interrupts running code through "VM traps". By default they are
    /// delivered with a signal (SIGUSR1), which the threads of Swift's cooperative pool
    /// (where actors such as ``Manager`` run) block: optimized code there could run far
    /// past its limit or never stop. Polling traps are checked by the code itself and
    /// work on every thread. A value already set in the environment wins.
    private static let processSetup: Void = {
        setenv("JSC_usePollingTraps", "true", 0)
    }()

    /// Creates a JavaScript class. Use this rather than `JSClassCreate`: JavaScriptCore
    /// reads its options on its first call, and the runtime's options must come first.
    public static func makeClass(_ definition: inout JSClassDefinition) -> JSClassRef {
        _ = processSetup
        return JSClassCreate(&definition)
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    private func applyTimeLimit() {
        let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) * 1e-18
        JSContextGroupSetExecutionTimeLimit(group, max(seconds, 0.001), { _, flag in
            Unmanaged<TerminationFlag>.fromOpaque(flag!).takeUnretainedValue().value.store(true, ordering: .relaxed)
            return true
        }, Unmanaged.passUnretained(terminated).toOpaque())
    }

    /// The global object.
    public var globalObject: JSObjectRef { JSContextGetGlobalObject(context) }

    // MARK: Running code

    /// Evaluates `source` as a script.
    /// - Parameters:
    ///   - sourceURL: the name that stack traces and errors report for this code.
    ///   - startingLine: the line number of the first line of `source`.
    public func evaluate(_ source: String, sourceURL: String? = nil, startingLine: Int = 1) throws(ScriptError) -> JSValueRef {
        terminated.value.store(false, ordering: .relaxed)
        var exception: JSValueRef?
        let result = withJSString(source) { script in
            if let sourceURL {
                return withJSString(sourceURL) { url in
                    JSEvaluateScript(context, script, nil, url, Int32(startingLine), &exception)
                }
            }
            return JSEvaluateScript(context, script, nil, nil, Int32(startingLine), &exception)
        }
        if let exception { throw remember(exception) }
        try checkLateTermination(file: sourceURL)
        return result ?? JSValueMakeUndefined(context)
    }

    /// Checks `source` for syntax errors without running it.
    public func checkSyntax(_ source: String, sourceURL: String, startingLine: Int = 1) throws(ScriptError) {
        var exception: JSValueRef?
        let ok = withJSString(source) { script in
            withJSString(sourceURL) { url in JSCheckScriptSyntax(context, script, url, Int32(startingLine), &exception) }
        }
        if !ok, let exception { throw error(from: exception) }
    }

    /// Calls `function` with `arguments`.
    public func call(_ function: JSObjectRef, this: JSObjectRef? = nil, arguments: [JSValueRef?] = []) throws(ScriptError) -> JSValueRef {
        terminated.value.store(false, ordering: .relaxed)
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer { args in
            JSObjectCallAsFunction(context, function, this, args.count, args.baseAddress, &exception)
        }
        if let exception { throw remember(exception) }
        try checkLateTermination(file: nil)
        return result ?? JSValueMakeUndefined(context)
    }

    /// The last exception a call or evaluation threw, kept so that host code that lets
    /// the error through (such as `require`) can rethrow the original value, with its own
    /// file and line, instead of a copy made at the caller.
    private(set) var lastException: (error: ScriptError, value: ProtectedValue)?

    private func remember(_ exception: JSValueRef) -> ScriptError {
        let error = error(from: exception)
        lastException = (error, protect(exception))
        return error
    }

    /// Promise jobs run after a call returns, still under the time limit; when the
    /// watchdog stopped one, no exception says so, but the flag does.
    private func checkLateTermination(file: String?) throws(ScriptError) {
        guard terminated.value.load(ordering: .relaxed) else { return }
        // The VM can still hold the termination request; let a trivial script absorb it
        // so that the next call runs normally.
        for _ in 0..<3 {
            var exception: JSValueRef?
            _ = withJSString("0") { JSEvaluateScript(context, $0, nil, nil, 1, &exception) }
            if exception == nil { break }
        }
        terminated.value.store(false, ordering: .relaxed)
        throw ScriptError(
            name: "TimeoutError", message: "a promise job ran longer than the time limit of \(timeLimitMilliseconds) ms and was terminated",
            file: file, isTimeout: true)
    }

    private var timeLimitMilliseconds: Int64 {
        timeLimit.components.seconds * 1000 + timeLimit.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: Errors

    /// Describes a thrown JavaScript value as a ``ScriptError``.
    public func error(from exception: JSValueRef) -> ScriptError {
        guard JSValueIsObject(context, exception), let object = JSValueToObject(context, exception, nil) else {
            let text = describe(exception)
            if text.hasPrefix("JavaScript execution terminated") {
                return ScriptError(name: "TimeoutError", message: "the script ran longer than the time limit of \(timeLimitMilliseconds) ms and was terminated", isTimeout: true)
            }
            return ScriptError(name: "", message: "uncaught \(text)")
        }
        let message = stringProperty(object, names.message) ?? describe(exception)
        let name = stringProperty(object, names.name) ?? "Error"
        let file = stringProperty(object, names.sourceURL)
        let line = numberProperty(object, names.line).map { Int($0) }
        let column = numberProperty(object, names.column).map { Int($0) }
        return ScriptError(name: name, message: message, file: file, line: line, column: column)
    }

    /// Makes a JavaScript `Error` (or subclass named by `type`, such as `TypeError`) with `message`.
    public func makeError(_ type: String = "Error", _ message: String) -> JSValueRef {
        let constructor = property(globalObject, type)
        guard JSValueIsObject(context, constructor), let ctor = JSValueToObject(context, constructor, nil) else {
            return makeString(message)
        }
        var arguments: [JSValueRef?] = [makeString(message)]
        return arguments.withUnsafeMutableBufferPointer { args in
            JSObjectCallAsConstructor(context, ctor, 1, args.baseAddress, nil) ?? makeString(message)
        }
    }

    // MARK: Values

    /// `String(value)` as JavaScript would print it; never throws.
    public func describe(_ value: JSValueRef) -> String {
        guard let js = JSValueToStringCopy(context, value, nil) else { return "<value>" }
        defer { JSStringRelease(js) }
        return String(js)
    }

    /// The string value, or `nil` unless `value` is a string.
    public func string(_ value: JSValueRef) -> String? {
        guard JSValueIsString(context, value) else { return nil }
        return describe(value)
    }

    /// The number value, or `nil` unless `value` is a number.
    public func number(_ value: JSValueRef) -> Double? {
        guard JSValueIsNumber(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    /// The object, or `nil` unless `value` is an object.
    public func object(_ value: JSValueRef) -> JSObjectRef? {
        guard JSValueIsObject(context, value) else { return nil }
        return JSValueToObject(context, value, nil)
    }

    /// Whether `value` can be called.
    public func isFunction(_ value: JSValueRef) -> Bool {
        guard let object = object(value) else { return false }
        return JSObjectIsFunction(context, object)
    }

    public func isUndefined(_ value: JSValueRef) -> Bool { JSValueIsUndefined(context, value) }

    public func makeString(_ string: String) -> JSValueRef {
        withJSString(string) { JSValueMakeString(context, $0) }
    }

    public func makeNumber(_ number: Double) -> JSValueRef { JSValueMakeNumber(context, number) }
    public func makeBoolean(_ value: Bool) -> JSValueRef { JSValueMakeBoolean(context, value) }
    public var null: JSValueRef { JSValueMakeNull(context) }
    public var undefined: JSValueRef { JSValueMakeUndefined(context) }

    /// A new, empty object.
    public func makeObject() -> JSObjectRef { JSObjectMake(context, nil, nil) }

    /// Builds the JavaScript value of a JSON value.
    public func makeValue(_ json: JSONValue) -> JSValueRef {
        switch json {
        case .null: return null
        case .bool(let b): return makeBoolean(b)
        case .number(let n): return makeNumber(n)
        case .string(let s): return makeString(s)
        case .array(let elements):
            var values: [JSValueRef?] = elements.map { makeValue($0) }
            return values.withUnsafeMutableBufferPointer { buffer in
                JSObjectMakeArray(context, buffer.count, buffer.baseAddress, nil)
            } ?? null
        case .object(let members):
            let object = makeObject()
            for (key, value) in members { setProperty(object, key, makeValue(value)) }
            return object
        }
    }

    /// The compact JSON text of `value` (`JSON.stringify`), or `nil` for `undefined`.
    /// Throws for values JSON cannot express: functions, symbols, cycles, BigInts.
    public func jsonText(_ value: JSValueRef) throws(ScriptError) -> String? {
        if JSValueIsUndefined(context, value) { return nil }
        if isFunction(value) {
            throw ScriptError(name: "TypeError", message: "a function is not a JSON value")
        }
        if JSValueIsSymbol(context, value) {
            throw ScriptError(name: "TypeError", message: "a symbol is not a JSON value")
        }
        var exception: JSValueRef?
        guard let text = JSValueCreateJSONString(context, value, 0, &exception) else {
            if let exception { throw error(from: exception) }
            throw ScriptError(name: "TypeError", message: "\(describe(value)) is not a JSON value")
        }
        defer { JSStringRelease(text) }
        return String(text)
    }

    /// Parses JSON text into a JavaScript value, or returns `nil` when it is not valid JSON.
    public func parseJSON(_ text: String) -> JSValueRef? {
        withJSString(text) { JSValueMakeFromJSONString(context, $0) }
    }

    // MARK: Properties

    public func property(_ object: JSObjectRef, _ name: String) -> JSValueRef {
        withJSString(name) { JSObjectGetProperty(context, object, $0, nil) } ?? undefined
    }

    public func setProperty(_ object: JSObjectRef, _ name: String, _ value: JSValueRef, readOnly: Bool = false) {
        let attributes = readOnly ? JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete) : JSPropertyAttributes(kJSPropertyAttributeNone)
        withJSString(name) { JSObjectSetProperty(context, object, $0, value, attributes, nil) }
    }

    /// Sets a global variable; `nil` deletes it.
    public func setGlobal(_ name: String, _ value: JSValueRef?) {
        if let value {
            setProperty(globalObject, name, value)
        } else {
            _ = withJSString(name) { JSObjectDeleteProperty(context, globalObject, $0, nil) }
        }
    }

    func stringProperty(_ object: JSObjectRef, _ name: InternedJSString) -> String? {
        guard let value = JSObjectGetProperty(context, object, name.ref, nil), JSValueIsString(context, value) else { return nil }
        return describe(value)
    }

    func numberProperty(_ object: JSObjectRef, _ name: InternedJSString) -> Double? {
        guard let value = JSObjectGetProperty(context, object, name.ref, nil), JSValueIsNumber(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    // MARK: Lifetime

    /// Keeps `value` alive until the returned handle is released.
    public func protect(_ value: JSValueRef) -> ProtectedValue {
        ProtectedValue(value, in: context)
    }

    /// Asks the collector to run (a hint; tests use it to check for leaks).
    public func collectGarbage() {
        JSGarbageCollect(context)
    }
}

/// Whether the watchdog terminated a script since the last call began.
final class TerminationFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// Property names the runtime reads often, created once.
final class PropertyNames {
    let message = InternedJSString("message")
    let name = InternedJSString("name")
    let sourceURL = InternedJSString("sourceURL")
    let line = InternedJSString("line")
    let column = InternedJSString("column")
}
