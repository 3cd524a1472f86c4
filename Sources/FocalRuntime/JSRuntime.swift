import CJavaScriptCore
import FocalCore
import FocalJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One JavaScriptCore virtual machine and global context.
///
/// A runtime is **confined**: it is not `Sendable`, and every call must come from the
/// executor that owns it (an actor, or one thread), so its entry depth opts out of the
/// runtime's exclusivity checks (`@exclusivity(unchecked)`). Separate runtimes share nothing,
/// each has its own context group, so many of them can run in parallel on all cores.
///
/// Every entry into JavaScript (``evaluate(_:sourceURL:startingLine:)`` and
/// ``call(_:this:arguments:)``) is bounded by ``timeLimit``: a script that runs longer
/// is terminated and reported as a ``ScriptError`` whose `isTimeout` is true, and the
/// runtime stays usable.
public final class JSRuntime {
    /// The global context, for the host classes and the tests of ``FocalRuntime``; never let
    /// values escape to another runtime.
    @usableFromInline package let context: JSGlobalContextRef
    /// The context and host (``setHost(_:)``) for host callbacks (``RunningRuntime``).
    @usableFromInline let runningEntry: UnsafeMutablePointer<RunningRuntime.Entry>
    let group: JSContextGroupRef
    let watchdog: Watchdog
    /// Reads a thrown value's name, message and location, under the time limit.
    private var errorReader: ProtectedValue?

    /// Sets the regular-expression guard's budget (see ``installRegExpGuard()``).
    private var regExpBudgetSetter: ProtectedValue?

    /// The longest a single call into JavaScript may run (CPU time), in
    /// `FocalLimits.timeLimitRange`. Regular-expression matches are weighed
    /// against it before they start (see ``regExpStepsPerMillisecond``).
    public var timeLimit: Duration { watchdog.timeLimit }

    /// Sets ``timeLimit`` for the calls that follow.
    /// - Throws: `ConfigurationError` (setting `timeLimit`) when `limit` is outside
    ///   `FocalLimits.timeLimitRange`; the limit is then unchanged.
    public func setTimeLimit(_ limit: Duration) throws(ConfigurationError) {
        try ConfigurationError.check(limit, in: FocalLimits.timeLimitRange, "timeLimit")
        applyTimeLimit(limit)
    }

    /// Sets ``timeLimit`` to `limit`, which the runtime's own code (or its host's, for its setup:
    /// ``setupTimeLimit``) knows to be in range.
    package func applyTimeLimit(_ limit: Duration) {
        watchdog.setTimeLimit(limit)
        updateRegExpBudget()
    }

    /// The most JavaScript heap, in bytes, this runtime may use. A call that grows the
    /// heap beyond it is terminated and reported as a ``ScriptError`` whose
    /// `isHeapLimit` is true; the runtime stays usable (what the script still references
    /// from globals stays allocated). The heap is checked at every tick of the time limit,
    /// so a script can overshoot by what it allocates in one tick. After a call is stopped
    /// for the heap, a full collection runs, and only a call that grows the heap past both
    /// the limit and what that collection left is stopped for it: a later call is never
    /// blamed for garbage or values an earlier one left. In
    /// `FocalLimits.heapLimitRange`, fixed when the runtime is made.
    public var heapLimit: Int { watchdog.heapLimit }

    /// This runtime's current JavaScript heap size in bytes (walks the heap: not for hot paths).
    public var heapSize: Int { Watchdog.heapSize(context) }

    /// Creates a runtime. The first runtime of the process fixes the
    /// ``JavaScriptCoreOptions`` (the defaults unless configured before).
    /// - Parameters:
    ///   - timeLimit: the limit for each evaluation or call, in `FocalLimits.timeLimitRange`.
    ///   - heapLimit: the heap limit in bytes, in `FocalLimits.heapLimitRange`;
    ///     `nil` for the configured default (``JavaScriptCoreOptions/defaultHeapLimit``).
    /// - Throws: `ConfigurationError` (setting `timeLimit` or `heapLimit`) when a
    ///   limit is outside its range: a limit is never adjusted.
    public convenience init(timeLimit: Duration = .seconds(1), heapLimit: Int? = nil) throws(ConfigurationError) {
        try self.init(timeLimit: timeLimit, heapLimit: heapLimit, globalObjectClass: nil)
    }

    /// Creates a runtime whose global object is of `globalObjectClass`: ``HostClass/global``
    /// lets the runtime have a host (``setHost(_:)``).
    package init(timeLimit: Duration = .seconds(1), heapLimit: Int? = nil, globalObjectClass: HostClass?) throws(ConfigurationError) {
        try ConfigurationError.check(timeLimit, in: FocalLimits.timeLimitRange, "timeLimit")
        if let heapLimit { try ConfigurationError.check(heapLimit, in: FocalLimits.heapLimitRange, "heapLimit") }
        let options = JavaScriptCoreOptions.start()
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, globalObjectClass?.jsClass)
        null = JSValueMakeNull(context)
        undefined = JSValueMakeUndefined(context)
        runningEntry = .allocate(capacity: 1)
        runningEntry.initialize(to: RunningRuntime.Entry(context: context))
        // The runtime's own setup code runs under the lockdown's generous bound, not the
        // caller's limit: a 1 ms limit on a busy machine must not fail the runtime's setup.
        watchdog = Watchdog(
            group: group, timeLimit: max(timeLimit, Self.setupTimeLimit), heapLimit: heapLimit ?? options.defaultHeapLimit)
        guard let reader = try? evaluate(Self.errorReaderSource, sourceURL: "<focal>") else {
            preconditionFailure("the runtime's own error reader failed to evaluate")
        }
        errorReader = protect(reader)
        do {
            regExpBudgetSetter = try installRegExpGuard()
        } catch {
            preconditionFailure("the runtime's regular-expression guard failed to install: \(error)")
        }
        applyTimeLimit(timeLimit)
    }

    /// Gives the regular-expression guard the budget of the current time limit. The call
    /// is the runtime's own two-line function; should it fail (the heap full at that very
    /// moment), the guard keeps the budget it had, which the next change sets again.
    private func updateRegExpBudget() {
        guard let setter = regExpBudgetSetter?.object else { return }
        do {
            _ = try call(setter, arguments: [makeNumber(Self.regExpBudget(for: timeLimit))])
        } catch {
            assertionFailure("setting the regular-expression budget failed: \(error)")
        }
    }

    /// Creates a JavaScript class. Use this rather than `JSClassCreate`: JavaScriptCore
    /// reads its options on its first call, and the runtime's options must come first.
    static func makeClass(_ definition: inout JSClassDefinition) -> JSClassRef {
        _ = JavaScriptCoreOptions.start()
        return JSClassCreate(&definition)
    }

    deinit {
        errorReader = nil
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
        runningEntry.deinitialize(count: 1)
        runningEntry.deallocate()
    }

    /// The global object.
    public var globalObject: ScriptObject { JSContextGetGlobalObject(context) }

    // MARK: Running code

    /// Evaluates `source` as a script.
    /// - Parameters:
    ///   - source: the script's text.
    ///   - sourceURL: the name that stack traces and errors report for this code.
    ///   - startingLine: the line number of the first line of `source`.
    public func evaluate(_ source: String, sourceURL: String? = nil, startingLine: Int = 1) throws(ScriptError) -> ScriptValue {
        var exception: JSValueRef?
        let result = entering {
            withJSString(source) { script in
                if let sourceURL {
                    return withJSString(sourceURL) { url in
                        JSEvaluateScript(context, script, nil, url, Int32(startingLine), &exception)
                    }
                }
                return JSEvaluateScript(context, script, nil, nil, Int32(startingLine), &exception)
            }
        }
        return try finish(result, exception, file: sourceURL)
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
    public func call(_ function: ScriptObject, this: ScriptObject? = nil, arguments: [ScriptValue?] = []) throws(ScriptError) -> ScriptValue
    {
        try arguments.withUnsafeBufferPointer { arguments throws(ScriptError) in try call(function, this: this, arguments) }
    }

    /// Calls `function` with the arguments in `argumentBuffer`: ``call(_:this:arguments:)``
    /// without an array to allocate, for host code that calls once per event.
    public func call(_ function: ScriptObject, argumentBuffer: UnsafeBufferPointer<ScriptValue?>) throws(ScriptError) -> ScriptValue {
        try call(function, this: nil, argumentBuffer)
    }

    private func call(_ function: ScriptObject, this: ScriptObject?, _ arguments: UnsafeBufferPointer<ScriptValue?>) throws(ScriptError)
        -> ScriptValue
    {
        var exception: JSValueRef?
        let result = entering { JSObjectCallAsFunction(context, function, this, arguments.count, arguments.baseAddress, &exception) }
        return try finish(result, exception, file: nil)
    }

    /// The watchdog's ticks so far, and how many one entry may run: a tick is an eighth of the time limit of CPU
    /// time, counted while a script runs (a batch's slices read it to learn cheaply that tasks took time).
    package var watchdogTicks: (counted: Int, allowed: Int) { (watchdog.ticksCounted, watchdog.ticksAllowed) }

    /// The thread inside the runtime, checked in debug builds: every entry into JavaScript enters it, and so does a
    /// host built on the runtime (an engine) at each of its ways in, so that its parts, and the host callbacks
    /// that reach them, can assert that they run on the thread inside (`ThreadConfinement`, FocalCore). The state
    /// below, and the host's, opts out of Swift's exclusivity checks on the strength of it.
    package let confinement = ThreadConfinement()

    /// How many calls into JavaScript are on the stack: the time limit starts again only
    /// at the outermost, so host code called from a script cannot extend its limit.
    @exclusivity(unchecked) var entryDepth = 0

    /// The entry depth of the running ``withOneEntry(_:)`` batch, whose calls count as
    /// outermost; 0 outside a batch.
    @exclusivity(unchecked) var batchDepth = 0
    /// The function whose one VM entry runs a batch's steps, made at the first batch.
    var batchEntry: ProtectedValue?
    /// The running batch.
    @exclusivity(unchecked) var batch = Batch()

    /// Runs `body`, which enters JavaScript, under the time and heap limits: a full time
    /// limit when it is an outermost entry, or with `continuingLimit` what is left of the
    /// limit of the entry just before it (reading what that entry threw). An outermost entry
    /// inside a batch then runs the promise jobs it queued, as the end of a VM entry does.
    private func entering<R>(continuingLimit: Bool = false, _ body: () -> R) -> R {
        confinement.enter()
        defer { confinement.exit() }
        let outermost = entryDepth == batchDepth
        if outermost, !continuingLimit { watchdog.enter(midTick: batchDepth > 0) }
        entryDepth += 1
        defer {
            entryDepth -= 1
            if outermost, batchDepth > 0 { VMLock.shared?.drainJobs(group) }
        }
        return RunningRuntime.with(runningEntry, body)
    }

    private func finish(_ result: JSValueRef?, _ exception: JSValueRef?, file: String?) throws(ScriptError) -> JSValueRef {
        if let exception { throw remember(exception) }
        try checkLateTermination(file: file)
        return result ?? JSValueMakeUndefined(context)
    }

    /// The last exception a call or evaluation threw, kept so that host code that lets
    /// the error through (such as `require`) can rethrow the original value, with its own
    /// file and line, instead of a copy made at the caller.
    private(set) var lastException: (error: ScriptError, value: ProtectedValue)?

    /// Describes `exception` and keeps it as ``lastException`` (for host code that changed what a thrown value says).
    func remember(_ exception: JSValueRef) -> ScriptError {
        let error = error(from: exception, continuingLimit: true)
        lastException = (error, protect(exception))
        return error
    }

    /// Promise jobs run after a call returns, still under the limits; when the watchdog
    /// stopped one, no exception says so, but the watchdog does.
    private func checkLateTermination(file: String?) throws(ScriptError) {
        let reason = watchdog.lastReason
        guard reason != .none, entryDepth == batchDepth else { return }
        var error = terminationError(reason, what: "a promise job")
        error.file = file
        throw error
    }

    /// The error for a script the watchdog stopped; lets the VM absorb the termination
    /// request so that the next call runs normally.
    private func terminationError(_ reason: Watchdog.Reason, what: String) -> ScriptError {
        watchdog.clearReason()
        // A termination disarms JavaScriptCore's watchdog until the next VM entry, and the VM
        // stops every later call until the outermost entry ends: a batch leaves its entry.
        watchdog.arm()
        if batchDepth > 0 { batch.leavesEntry = true }
        for _ in 0..<3 {
            var exception: JSValueRef?
            _ = withJSString("0") { JSEvaluateScript(context, $0, nil, nil, 1, &exception) }
            if exception == nil { break }
        }
        watchdog.clearReason()
        var error: ScriptError
        if reason == .heap {
            let sizeAtTermination = watchdog.heapSizeAtTermination
            watchdog.collectAfterHeapTermination(context)
            error = ScriptError(
                name: "HeapLimitError",
                message:
                    "\(what) used more than the heap limit of \(heapLimit >> 20) MiB (\(sizeAtTermination >> 20) MiB) and was terminated",
                isHeapLimit: true)
        } else {
            error = ScriptError(
                name: "TimeoutError", message: "\(what) ran longer than the time limit of \(timeLimitMilliseconds) ms and was terminated",
                isTimeout: true)
        }
        // Where it ran: the stack when the watchdog stopped it (the innermost frame at its latest call).
        error.frames = watchdog.backtraceAtTermination.map(ScriptFrame.parse(backtrace:)) ?? []
        watchdog.backtraceAtTermination = nil
        return error
    }

    private var timeLimitMilliseconds: Int64 {
        timeLimit.components.seconds * 1000 + timeLimit.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: Errors

    /// Describes a thrown JavaScript value as a ``ScriptError``.
    ///
    /// The properties of a thrown object (`name`, `message`, `sourceURL`, `line`,
    /// `column`) are read by JavaScript under the time and heap limits, since getters or
    /// a `Proxy` may run task code; when reading fails, the error says so.
    public func error(from exception: ScriptValue) -> ScriptError {
        error(from: exception, continuingLimit: false)
    }

    /// ``error(from:)``; with `continuingLimit`, reading the thrown value takes what is left
    /// of the time limit of the call that threw it instead of a limit of its own. That call
    /// may already have spent its limit on the thrown value: JavaScriptCore converts an
    /// exception that leaves a C API call to a string for its inspector (`Symbol.toPrimitive`,
    /// `toString`, `valueOf`, under the call's limit) and then lets the exception through, so
    /// a thrown object whose conversion loops would otherwise cost two limits.
    private func error(from exception: JSValueRef, continuingLimit: Bool) -> ScriptError {
        guard JSValueIsObject(context, exception) else {
            let reason = watchdog.lastReason
            let text = describe(exception)
            if text.hasPrefix("JavaScript execution terminated") {
                return terminationError(reason == .heap ? .heap : .time, what: "the script")
            }
            // Thrown primitives are shown as JSON: `throw "x"` is `uncaught "x"`.
            return ScriptError(
                name: "", message: "uncaught \(JSValueIsString(context, exception) ? JSONValue.string(text).jsonString : text)")
        }
        var failure: JSValueRef?
        let fields = entering(continuingLimit: continuingLimit) { () -> JSValueRef? in
            guard let reader = errorReader?.object else { return nil }
            var arguments: [JSValueRef?] = [exception]
            return JSObjectCallAsFunction(context, reader, nil, 1, &arguments, &failure)
        }
        guard failure == nil, let fields, let array = object(fields) else {
            let reason = watchdog.lastReason
            if reason != .none { return terminationError(reason, what: "reading the thrown value") }
            return ScriptError(name: "Error", message: "uncaught exception whose name and message cannot be read")
        }
        func field(_ index: UInt32) -> JSValueRef { JSObjectGetPropertyAtIndex(context, array, index, nil) ?? undefined }
        var error = ScriptError(
            name: string(field(0)) ?? "Error", message: string(field(1)) ?? "", file: string(field(2)),
            line: number(field(3)).map { Int($0) }, column: number(field(4)).map { Int($0) })
        if let stack = string(field(5)) { error.frames = ScriptFrame.parse(stack: stack) }
        return error
    }

    /// Reads what ``error(from:)`` needs from a thrown object in one call; `String` is
    /// captured before any task runs, so a task cannot replace it.
    private static let errorReaderSource = """
        (function (String, stringify, ErrorType) {
          'use strict';
          return function (e) {
            var name = e.name, message = e.message, url = e.sourceURL, line = e.line, column = e.column, stack = e.stack;
            if (typeof message !== 'string' && !(e instanceof ErrorType)) {
              // Not an error (`throw {code: 42}`): shown as JSON, as String() would say [object Object].
              var json;
              try { json = stringify(e); } catch (_) {}
              if (typeof json === 'string') return ['', 'uncaught ' + json];
            }
            if (typeof message !== 'string') {
              try { message = String(e); } catch (_) { message = 'a thrown value that cannot be converted to a string'; }
            }
            return [typeof name === 'string' ? name : undefined, message,
                    typeof url === 'string' ? url : undefined,
                    typeof line === 'number' ? line : undefined,
                    typeof column === 'number' ? column : undefined,
                    typeof stack === 'string' ? stack : undefined];
          };
        })(String, JSON.stringify, Error)
        """

    /// Makes a JavaScript `Error` (or subclass named by `type`, such as `TypeError`) with `message`.
    public func makeError(_ type: String = "Error", _ message: String) -> ScriptValue {
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
    ///
    /// An object's `toString` is task code: it runs under the limits, and when stopped
    /// the description is `<value>`.
    public func describe(_ value: ScriptValue) -> String {
        guard JSValueIsObject(context, value) else { return copyString(value) ?? "<value>" }
        let text = entering { copyString(value) }
        if entryDepth == batchDepth, watchdog.lastReason != .none {
            _ = terminationError(watchdog.lastReason, what: "describing a value")
        }
        return text ?? "<value>"
    }

    /// `String(value)` for a value whose conversion runs no script (a primitive).
    private func copyString(_ value: JSValueRef) -> String? {
        guard let js = JSValueToStringCopy(context, value, nil) else { return nil }
        defer { JSStringRelease(js) }
        return String(js)
    }

    /// The string value, or `nil` unless `value` is a string.
    public func string(_ value: ScriptValue) -> String? {
        guard JSValueIsString(context, value) else { return nil }
        return copyString(value)  // a string runs no script to convert
    }

    /// The text of `value`, which host code knows to be a string because its own code made
    /// it (never a task's value: converting an object would run its code outside the
    /// limits). One call into JavaScriptCore, where ``string(_:)`` makes two.
    package func string(ofKnownString value: ScriptValue) -> String? {
        copyString(value)
    }

    /// The string value, or `nil` unless `value` is a string, when it is at most
    /// `maximumUTF8Count` bytes long in UTF-8.
    ///
    /// - Throws: a `RangeError` naming `what` and the limit when the string is longer. Its
    ///   length in UTF-16 units, which never exceeds its UTF-8 length, is checked before
    ///   the text is converted, so a long string is never copied into Swift.
    public func string(_ value: ScriptValue, maximumUTF8Count: Int, what: String) throws(ScriptError) -> String? {
        guard JSValueIsString(context, value), let js = JSValueToStringCopy(context, value, nil) else { return nil }
        defer { JSStringRelease(js) }
        if JSStringGetLength(js) <= maximumUTF8Count {
            let text = String(js)
            if text.utf8.count <= maximumUTF8Count { return text }
        }
        throw ScriptError(name: "RangeError", message: "\(what) is longer than the limit of \(maximumUTF8Count) bytes")
    }

    /// The number value, or `nil` unless `value` is a number.
    public func number(_ value: ScriptValue) -> Double? {
        guard JSValueIsNumber(context, value) else { return nil }
        return JSValueToNumber(context, value, nil)
    }

    /// The object, or `nil` unless `value` is an object.
    public func object(_ value: ScriptValue) -> ScriptObject? {
        guard JSValueIsObject(context, value) else { return nil }
        return JSValueToObject(context, value, nil)
    }

    /// Whether `value` is an array (`Array.isArray(value)`).
    public func isArray(_ value: ScriptValue) -> Bool { JSValueIsArray(context, value) }

    /// Whether `value` can be called.
    public func isFunction(_ value: ScriptValue) -> Bool {
        guard let object = object(value) else { return false }
        return JSObjectIsFunction(context, object)
    }

    public func isUndefined(_ value: ScriptValue) -> Bool { JSValueIsUndefined(context, value) }

    public func makeString(_ string: String) -> ScriptValue {
        withJSString(string) { JSValueMakeString(context, $0) }
    }

    public func makeNumber(_ number: Double) -> ScriptValue { JSValueMakeNumber(context, number) }
    public func makeBoolean(_ value: Bool) -> ScriptValue { JSValueMakeBoolean(context, value) }
    /// `null` and `undefined`: made once, as they are immediates (not cells) in a 64-bit
    /// JavaScriptCore, the same value for the runtime's life, which the collector never moves
    /// or frees. Comparing a value with ``undefined`` tells whether it is `undefined` without a call.
    public let null: ScriptValue
    public let undefined: ScriptValue

    /// A new, empty object.
    public func makeObject() -> ScriptObject { JSObjectMake(context, nil, nil) }

    /// A new array of `elements`, which the caller keeps where the collector sees them (on the
    /// stack, or protected) until it returns: unlike ``makeValue(_:)``, it roots nothing.
    package func makeArray(_ elements: UnsafeBufferPointer<ScriptValue?>) -> ScriptValue {
        JSObjectMakeArray(context, elements.count, elements.baseAddress, nil) ?? null
    }

    /// Builds the JavaScript value of a JSON value.
    public func makeValue(_ json: JSONValue) -> ScriptValue {
        switch json {
        case .null: return null
        case .bool(let b): return makeBoolean(b)
        case .number(let n): return makeNumber(n)
        case .string(let s): return makeString(s)
        case .array(let elements):
            // Rooted while the array is built: making an element may run the collector,
            // which does not scan Swift arrays.
            let rooted = elements.map { protect(makeValue($0)) }
            var values: [JSValueRef?] = rooted.map(\.value)
            return withExtendedLifetime(rooted) {
                values.withUnsafeMutableBufferPointer { buffer in
                    JSObjectMakeArray(context, buffer.count, buffer.baseAddress, nil)
                }
            } ?? null
        case .object(let members):
            let object = makeObject()
            for (key, value) in members { setProperty(object, key, makeValue(value)) }
            return object
        }
    }

    /// The compact JSON text of `value` (`JSON.stringify`), or `nil` for `undefined`.
    /// Throws for values JSON cannot express: functions, symbols, cycles, BigInts.
    public func jsonText(_ value: ScriptValue) throws(ScriptError) -> String? {
        if JSValueIsUndefined(context, value) { return nil }
        if isFunction(value) {
            throw ScriptError(name: "TypeError", message: "a function is not a JSON value")
        }
        if JSValueIsSymbol(context, value) {
            throw ScriptError(name: "TypeError", message: "a symbol is not a JSON value")
        }
        var exception: JSValueRef?
        guard let text = entering({ JSValueCreateJSONString(context, value, 0, &exception) }) else {
            if let exception { throw error(from: exception) }
            throw ScriptError(name: "TypeError", message: "\(describe(value)) is not a JSON value")
        }
        defer { JSStringRelease(text) }
        return String(text)
    }

    /// Parses JSON text into a JavaScript value, or returns `nil` when it is not valid JSON.
    public func parseJSON(_ text: String) -> ScriptValue? {
        withJSString(text) { JSValueMakeFromJSONString(context, $0) }
    }

    // MARK: Properties

    public func property(_ object: ScriptObject, _ name: String) -> ScriptValue {
        withJSString(name) { JSObjectGetProperty(context, object, $0, nil) } ?? undefined
    }

    /// The element at `index` of `object` (`object[index]`), `undefined` when it has none.
    /// A getter or `Proxy` trap that throws also gives `undefined`.
    public func element(_ object: ScriptObject, at index: Int) -> ScriptValue {
        JSObjectGetPropertyAtIndex(context, object, UInt32(index), nil) ?? undefined
    }

    public func setProperty(_ object: ScriptObject, _ name: String, _ value: ScriptValue, readOnly: Bool = false) {
        let attributes =
            readOnly
            ? JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete)
            : JSPropertyAttributes(kJSPropertyAttributeNone)
        withJSString(name) { JSObjectSetProperty(context, object, $0, value, attributes, nil) }
    }

    /// Sets a global variable; `nil` deletes it.
    public func setGlobal(_ name: String, _ value: ScriptValue?) {
        if let value {
            setProperty(globalObject, name, value)
        } else {
            _ = withJSString(name) { JSObjectDeleteProperty(context, globalObject, $0, nil) }
        }
    }

    // MARK: Lifetime

    /// Keeps `value` alive until the returned handle is released.
    public func protect(_ value: ScriptValue) -> ProtectedValue {
        ProtectedValue(value, in: context)
    }

    /// Asks the collector to run (a hint; tests use it to check for leaks).
    public func collectGarbage() {
        JSGarbageCollect(context)
    }
}
