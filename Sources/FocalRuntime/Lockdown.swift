import CJavaScriptCore

/// Freezes what every session of a runtime shares, so that no session can change what
/// another sees (as Hardened JavaScript's `lockdown()` does).
///
/// A runtime's sessions share one global object and one set of intrinsics (`Object`,
/// `Array.prototype`, `Function.prototype`, `JSON`…). Once locked down, every object
/// reachable from the global object, from what only syntax makes (generators, async
/// functions, `arguments`), from what built-ins make (the prototypes of iterators, iterator
/// helpers, `Intl.Segmenter`'s segments: a list that the isolation suite's reachability audit
/// checks is complete; the TaskSandbox article says how) and from `roots` is frozen,
/// prototypes and accessor functions included: a write to any of them throws a
/// `TypeError` in strict code (task files are strict) and fails in sloppy code, so the
/// global scope holds no mutable value. A session keeps its state in its own module
/// instances (see ``ModuleSystem``).
///
/// Two changes come with it:
///
/// - **The override mistake.** Assigning a property that an object inherits from a frozen
///   prototype as a data property fails (`MyError.prototype.name = 'MyError'`,
///   `Point.prototype.toString = …`, `error.message = …`). As in Hardened JavaScript, the
///   properties such code assigns become accessors: reading gives the original value, and
///   assigning defines an own property on the object assigned to (assigning on the
///   prototype itself still throws). They are every property of `Object.prototype`;
///   `toString` of `Array.prototype` and `Function.prototype`, and `constructor` of
///   `Function.prototype` and `Promise.prototype`; `constructor`, `message`, `name` and
///   `toString` of `Error.prototype` and of each native error's prototype.
///   `Object.defineProperty` and class fields and methods never had the problem.
/// - **`RegExp`'s legacy static properties** (`RegExp.$1`, `RegExp.lastMatch`,
///   `RegExp.input`…) are removed: they hold the last match of any session.
///
/// The static functions of a JavaScriptCore C API class (on the prototype JavaScriptCore
/// makes for a class that has them) stay configurable whatever `Object.freeze` does, so
/// `Object.defineProperty` could still replace one: objects that every session reaches must
/// not be such prototypes (FocalEngine's host classes have no static functions, and their
/// methods are ordinary properties of the class's prototype: see ``HostClass``).
///
/// After ``lockDown(alsoFreezing:)`` the runtime's globals cannot change: make every
/// global (``setGlobal(_:_:)``) before it.
extension JSRuntime {
    /// Freezes the intrinsics, the global object and `roots`, and everything reachable from
    /// them. Returns how many objects were frozen.
    /// - Throws: when freezing fails (an object refuses to be frozen).
    @discardableResult
    public func lockDown(alsoFreezing roots: [ScriptObject] = []) throws(ScriptError) -> Int {
        guard let lockDown = object(try evaluate(Self.lockdownSource, sourceURL: "<focal lockdown>")) else {
            throw ScriptError(name: "TypeError", message: "the lockdown is not a function")
        }
        let rooted = roots.map { protect($0) }
        let array = withExtendedLifetime(rooted) {
            var values: [JSValueRef?] = roots
            return JSObjectMakeArray(context, values.count, &values, nil)
        }
        guard let array else { throw ScriptError(name: "Error", message: "could not list the objects to freeze") }
        // The lockdown is the runtime's own code of fixed size, not a task: it runs under a
        // bound of its own (it takes milliseconds, seconds only under JavaScriptCore's GC
        // stress options), then the task time limit is back.
        let taskLimit = timeLimit
        applyTimeLimit(max(taskLimit, Self.setupTimeLimit))
        defer { applyTimeLimit(taskLimit) }
        let count = number(try call(lockDown, arguments: [array])) ?? 0
        runningEntry.pointee.isLockedDown = true
        return Int(count)
    }

    /// The time bound of the runtime's own setup code and its host's (the error reader, the
    /// regular-expression guard, an engine's bindings and wrappers, the lockdown): code of fixed
    /// size, not a task, so the task time limit (as small as 1 ms) does not apply to it.
    package static let setupTimeLimit = Duration.seconds(120)

    private static let lockdownSource = """
        (function (roots) {
          'use strict';
          const getDescriptor = Object.getOwnPropertyDescriptor, getDescriptors = Object.getOwnPropertyDescriptors;
          const define = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, freeze = Object.freeze;
          const isExtensible = Object.isExtensible, hasOwn = Object.hasOwn, ownKeys = Reflect.ownKeys;
          const TypeErrorType = TypeError, StringType = String;
          function enableOverride(object, path, name) {
            const descriptor = getDescriptor(object, name);
            if (descriptor === undefined || !('value' in descriptor) || !descriptor.configurable) return;
            const value = descriptor.value;
            define(object, name, {
              get: function () { return value; },
              set: function (newValue) {
                if (this === object) throw new TypeErrorType("Cannot assign to read only property '" + StringType(name) + "' of " + path);
                if (hasOwn(this, name)) { this[name] = newValue; return; }
                define(this, name, { value: newValue, writable: true, enumerable: true, configurable: true });
              },
              enumerable: descriptor.enumerable, configurable: false,
            });
          }
          for (const name of ownKeys(Object.prototype)) {
            if (name !== '__proto__') enableOverride(Object.prototype, 'Object.prototype', name);
          }
          enableOverride(Array.prototype, 'Array.prototype', 'toString');
          enableOverride(Function.prototype, 'Function.prototype', 'toString');
          enableOverride(Function.prototype, 'Function.prototype', 'constructor');
          enableOverride(Promise.prototype, 'Promise.prototype', 'constructor');
          const errors = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError];
          for (const type of errors) {
            for (const name of ['constructor', 'message', 'name', 'toString']) enableOverride(type.prototype, type.name + '.prototype', name);
          }
          for (const name of ownKeys(RegExp)) {
            const descriptor = getDescriptor(RegExp, name);
            if (descriptor.get !== undefined && descriptor.configurable) delete RegExp[name];
          }
          // The intrinsics no global names: what syntax alone makes (generators, async functions, `arguments`'s
          // %ThrowTypeError%) and what built-ins make (iterators, iterator helpers, `Iterator.from`'s wrapper,
          // `Intl.Segmenter`'s segments and their iterator). The isolation suite's reachability audit calls every
          // built-in and fails on any prototype shared by two sessions that this list misses (a JavaScriptCore
          // upgrade that adds one); the list is not found by such a walk here, at every start, because calling every
          // built-in made JavaScriptCore 2.50 crash later under its GC stress option and tripled the lockdown's time.
          const made = [
            () => function* () {}, () => function* () {}(), () => async function () {}, () => async function* () {},
            () => async function* () {}(), () => [][Symbol.iterator](), () => ''[Symbol.iterator](),
            () => new Map()[Symbol.iterator](), () => new Set()[Symbol.iterator](), () => /x/[Symbol.matchAll](''),
            () => Int8Array, () => [].values().map(x => x), () => Iterator.from({ next() { return { done: true }; } }),
            () => new Intl.Segmenter().segment(''), () => new Intl.Segmenter().segment('')[Symbol.iterator](),
          ];
          const unnamed = [getDescriptor(function () { 'use strict'; return arguments; }(), 'callee').get];
          for (const make of made) {
            // A built-in this JavaScriptCore lacks has nothing to freeze.
            let value;
            try { value = make(); } catch (error) { continue; }
            unnamed.push(getPrototypeOf(value));
          }
          const pending = [globalThis].concat(unnamed, roots);
          const frozen = new Set();
          while (pending.length > 0) {
            const value = pending.pop();
            if ((typeof value !== 'object' && typeof value !== 'function') || value === null || frozen.has(value)) continue;
            frozen.add(value);
            freeze(value);
            // An object that stays extensible after freeze is not what it seems: refuse it.
            if (isExtensible(value)) throw new TypeErrorType('an intrinsic could not be frozen');
            pending.push(getPrototypeOf(value));
            const descriptors = getDescriptors(value);
            for (const key of ownKeys(descriptors)) {
              const descriptor = descriptors[key];
              if ('value' in descriptor) pending.push(descriptor.value); else pending.push(descriptor.get, descriptor.set);
            }
          }
          return frozen.size;
        })
        """
}
