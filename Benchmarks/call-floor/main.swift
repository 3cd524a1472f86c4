// The cost of calling a task through JavaScriptCore's C API, without Focal: the floor under
// `focal replay`'s task calls. Built and run by `./Scripts/bench floor` (swiftc -O, the
// system JavaScriptCore, polling traps on as in `focal`).
//
// It calls, 113,085 times each (the benchmark log's task calls):
// - a trivial function from Swift (one VM entry per call, the watchdog armed as in Focal);
// - the same function from inside one host call (nested: no VM entry of its own);
// - the benchmark's exposure task on a fresh node object of a class with static functions
//   and values, like Focal's node handles: `firstDisplayedEvent()`, `latestEvent()`, `index`,
//   `latestValue('title')`, its result serialized by `JSON.stringify` and copied out as UTF-8;
// - the same, from a JavaScript loop entered once per batch of events (what a task model that
//   enters the VM once per batch would cost per call);
// - the same, with the promise jobs a call queued run before the next call, as they run now
//   after each call's own VM entry: the loop's host function takes the VM's lock and drains
//   the microtask queue (`JSC::VM::drainMicrotasks`, exported by the library but in no public
//   header, found with dlsym; skipped when it is not there);
// - the exposure task as Focal calls it since stop 31: from Swift, nested in one host call that
//   holds the VM's lock, each call passing the node's index and generation, its index, its event
//   (a host object made per call, released by a finalizer), its visibility and its values as
//   key path, value pairs (since stop 32: arguments, not an array made per call, and the numbers
//   in a Float64Array over memory both sides share, so a call has at most eight arguments);
//   JavaScript makes the handle (a class instance) and its members answer
//   from those without a call into Swift; the result serialized and (since stop 33) written as
//   bytes into a Uint8Array over memory both sides share when it is short and ASCII, the call
//   returning null, or copied out; the microtask queue drained after each call.
import CJavaScriptCore

#if canImport(Glibc)
import Glibc
#endif

let calls = 113_085

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let group = JSContextGroupCreate()!
JSContextGroupSetExecutionTimeLimit(group, 0.125, { _, _ in false }, nil)
let context = JSGlobalContextCreateInGroup(group, nil)!

func evaluate(_ source: String) -> JSObjectRef {
    let script = JSStringCreateWithUTF8CString(source)
    defer { JSStringRelease(script) }
    return JSValueToObject(context, JSEvaluateScript(context, script, nil, nil, 1, nil), nil)!
}

func report(_ what: String, _ elapsed: Double) {
    let nanoseconds = Int((elapsed / Double(calls) * 1e9).rounded())
    print("\(what): \(nanoseconds) ns per call")
}

// A trivial function, from Swift and nested in one host call.
let trivial = evaluate("(function (n) { return n.x + 1; })")
let argument = evaluate("({ x: 1 })")
var start = seconds()
for _ in 0..<calls {
    var arguments: [JSValueRef?] = [argument]
    _ = JSObjectCallAsFunction(context, trivial, nil, 1, &arguments, nil)
}
report("trivial function, one VM entry per call", seconds() - start)

nonisolated(unsafe) var nestedSeconds = 0.0
let host = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in
    let start = seconds()
    for _ in 0..<calls {
        var arguments: [JSValueRef?] = [argument]
        _ = JSObjectCallAsFunction(context, trivial, nil, 1, &arguments, nil)
    }
    nestedSeconds = seconds() - start
    return JSValueMakeUndefined(context)
}
_ = JSObjectCallAsFunction(context, host, nil, 0, nil, nil)
report("trivial function, nested in one host call", nestedSeconds)

// The benchmark task on a node handle with static members, as Focal's NodeBinding makes them.
nonisolated(unsafe) var event: JSObjectRef?
func eventObject(_ context: JSContextRef?) -> JSValueRef? {
    if event == nil {
        event = JSObjectMake(context, nil, nil)
        JSValueProtect(context, event)
    }
    return event
}
let readOnly = JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete)
let values = UnsafeMutablePointer<JSStaticValue>.allocate(capacity: 2)
values.initialize(
    from: [
        JSStaticValue(
            name: strdup("index"), getProperty: { context, _, _, _ in JSValueMakeNumber(context, 42) }, setProperty: nil,
            attributes: readOnly),
        JSStaticValue(name: nil, getProperty: nil, setProperty: nil, attributes: 0),
    ], count: 2)
let functions = UnsafeMutablePointer<JSStaticFunction>.allocate(capacity: 4)
functions.initialize(
    from: [
        JSStaticFunction(
            name: strdup("latestEvent"), callAsFunction: { context, _, _, _, _, _ in eventObject(context) }, attributes: readOnly),
        JSStaticFunction(
            name: strdup("firstDisplayedEvent"), callAsFunction: { context, _, _, _, _, _ in eventObject(context) }, attributes: readOnly),
        JSStaticFunction(
            name: strdup("latestValue"),
            callAsFunction: { context, _, _, count, arguments, _ in
                if count > 0, let key = JSValueToStringCopy(context, arguments![0], nil) { JSStringRelease(key) }
                let value = JSStringCreateWithUTF8CString("Row 1")
                defer { JSStringRelease(value) }
                return JSValueMakeString(context, value)
            }, attributes: readOnly),
        JSStaticFunction(name: nil, callAsFunction: nil, attributes: 0),
    ], count: 4)
var definition = kJSClassDefinitionEmpty
definition.className = UnsafePointer(strdup("Node"))
definition.staticValues = UnsafePointer(values)
definition.staticFunctions = UnsafePointer(functions)
let nodeClass = JSClassCreate(&definition)
let wrapper = evaluate(
    """
    (function (stringify) { return function (fn) { return function (node) {
      const result = fn(node); return result === undefined ? undefined : stringify(result); }; }; })(JSON.stringify)
    """)
let exposure = evaluate(
    """
    (node => { if (node.firstDisplayedEvent() !== node.latestEvent()) return undefined;
      return { event: 'row_exposed', row: node.index, title: node.latestValue('title') }; })
    """)
var wrapperArguments: [JSValueRef?] = [exposure]
let task = JSValueToObject(context, JSObjectCallAsFunction(context, wrapper, nil, 1, &wrapperArguments, nil), nil)!
JSValueProtect(context, task)
var bytes = 0
start = seconds()
for _ in 0..<calls {
    var arguments: [JSValueRef?] = [JSObjectMake(context, nodeClass, nil)]
    if let result = JSObjectCallAsFunction(context, task, nil, 1, &arguments, nil), JSValueIsString(context, result),
        let text = JSValueToStringCopy(context, result, nil)
    {
        let size = JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        bytes += JSStringGetUTF8CString(text, &buffer, size)
        JSStringRelease(text)
    }
    if let object = event {
        JSValueUnprotect(context, object)
        event = nil
    }
}
report("the exposure task on a new node handle, result copied out", seconds() - start)
precondition(bytes > 0, "the task produced no result")

// The same task and handles, with the VM entered once per batch of 64 events: a JavaScript loop
// takes each node handle from a host function and hands each result to another, so that no call
// of the batch but the first enters the VM (and arms the watchdog).
let batch = 64
nonisolated(unsafe) var batchBytes = 0
let nextNode = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in JSObjectMake(context, nodeClass, nil) }
let deliver = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, count, arguments, _ in
    if count > 0, let text = JSValueToStringCopy(context, arguments![0], nil) {
        let size = JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        batchBytes += JSStringGetUTF8CString(text, &buffer, size)
        JSStringRelease(text)
    }
    return JSValueMakeUndefined(context)
}
let loop = evaluate(
    """
    (function (task, nextNode, deliver) { return function (count) {
      for (let i = 0; i < count; i++) { const result = task(nextNode()); if (result !== undefined) deliver(result); } }; })
    """)
var loopArguments: [JSValueRef?] = [task, nextNode, deliver]
let batchLoop = JSValueToObject(context, JSObjectCallAsFunction(context, loop, nil, 3, &loopArguments, nil), nil)!
JSValueProtect(context, batchLoop)
/// Calls `loop(count, queuing)` once per batch until every call is made.
func runBatches(_ loop: JSObjectRef, queuing: Bool = false) {
    var done = 0
    while done < calls {
        let count = min(batch, calls - done)
        var arguments: [JSValueRef?] = [JSValueMakeNumber(context, Double(count)), JSValueMakeBoolean(context, queuing)]
        _ = JSObjectCallAsFunction(context, loop, nil, 2, &arguments, nil)
        if let object = event {
            JSValueUnprotect(context, object)
            event = nil
        }
        done += count
    }
}
start = seconds()
runBatches(batchLoop)
report("the same, the VM entered once per \(batch) events", seconds() - start)
precondition(batchBytes == bytes, "the batched calls produced other results")

// The same batches, draining the promise jobs before each call. A host function runs with the
// VM's lock dropped, so it takes the lock (a `JSC::JSLockHolder`, made and destroyed through its
// exported constructor and destructor) around `JSC::VM::drainMicrotasks`; a context group is the
// VM. The loop's task queues a promise job at every call, which must have run before the next.
typealias LockHolderConstructor = @convention(c) (UnsafeMutableRawPointer, OpaquePointer) -> Void
typealias LockHolderDestructor = @convention(c) (UnsafeMutableRawPointer) -> Void
typealias DrainMicrotasks = @convention(c) (OpaquePointer) -> Void
let library = dlopen(nil, RTLD_NOW)
let lockVM = dlsym(library, "_ZN3JSC12JSLockHolderC1ERNS_2VME").map { unsafeBitCast($0, to: LockHolderConstructor.self) }
let unlockVM = dlsym(library, "_ZN3JSC12JSLockHolderD1Ev").map { unsafeBitCast($0, to: LockHolderDestructor.self) }
let drainMicrotasks = dlsym(library, "_ZN3JSC2VM15drainMicrotasksEv").map { unsafeBitCast($0, to: DrainMicrotasks.self) }
nonisolated(unsafe) var jobsRun = 0
nonisolated(unsafe) var jobsLate = 0
if lockVM != nil, unlockVM != nil, drainMicrotasks != nil {
    let jobDone = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in
        jobsRun += 1
        return JSValueMakeUndefined(context)
    }
    let late = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in
        jobsLate += 1
        return JSValueMakeUndefined(context)
    }
    let drainingNextNode = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in
        let vm = JSContextGetGroup(context)!
        let holder = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        lockVM!(holder, vm)
        drainMicrotasks!(vm)
        unlockVM!(holder)
        holder.deallocate()
        return JSObjectMake(context, nodeClass, nil)
    }
    // With `queue`, the loop also queues a promise job at every call and notes a call that
    // begins before the job of the call before ran: timed without, checked with.
    let makeLoop = evaluate(
        """
        (function (task, jobDone, nextNode, deliver, late) {
          let pending = 0; const ran = () => { pending--; jobDone(); };
          return function (count, queue) {
            for (let i = 0; i < count; i++) {
              const node = nextNode(); if (pending !== 0) late();
              if (queue) { Promise.resolve().then(ran); pending++; }
              const result = task(node); if (result !== undefined) deliver(result);
            } }; })
        """)
    var drainingArguments: [JSValueRef?] = [task, jobDone, drainingNextNode, deliver, late]
    let drainingLoop = JSValueToObject(context, JSObjectCallAsFunction(context, makeLoop, nil, 5, &drainingArguments, nil), nil)!
    JSValueProtect(context, drainingLoop)
    batchBytes = 0
    start = seconds()
    runBatches(drainingLoop)
    report("the same, the microtask queue drained before each call (lock taken in the loop's host call)", seconds() - start)
    precondition(batchBytes == bytes, "the draining batches produced other results")
    runBatches(drainingLoop, queuing: true)
    precondition(jobsRun == calls && jobsLate == 0, "\(jobsLate) calls began before the job of the call before had run")
} else {
    print("the same, the microtask queue drained before each call: skipped (no JSC::VM::drainMicrotasks)")
}

// Focal's design since stop 31: no host callback in the task's reads, handles made in JavaScript.
nonisolated(unsafe) var eventDefinition = kJSClassDefinitionEmpty
eventDefinition.className = UnsafePointer(strdup("Event"))
eventDefinition.finalize = { _ in }
nonisolated(unsafe) let eventClass = JSClassCreate(&eventDefinition)
let makeWrapperFactory = evaluate(
    """
    (function (stringify, shared, bytes) {
      let node = null, nodeIndex = null, latest = null, first = null, visible = false, count = 0, k0, v0;
      class Node {
        #slot; #generation;
        constructor(slot, generation) { this.#slot = slot; this.#generation = generation; }
        get index() { return this === node ? nodeIndex : this.#slot; }
        latestEvent() { return this === node ? latest : null; }
        firstDisplayedEvent() { return this === node ? first : null; }
        latestValue(keyPath) {
          if (this === node && count > 0 && k0 === keyPath) return v0;
          return undefined;
        }
      }
      function hand(text) {
        const count = text.length;
        if (count > bytes.length) return text;
        for (let i = 0; i < count; i++) { const c = text.charCodeAt(i); if (c > 0x7f) return text; bytes[i] = c; }
        shared[5] = count;
        return null;
      }
      return function (fn) {
        return function (l, f, a0, b0) {
          node = new Node(shared[0], shared[1]); nodeIndex = shared[2]; latest = l; first = f; visible = shared[3] !== 0;
          count = shared[4]; k0 = a0; v0 = b0;
          const result = fn(node); return result === undefined ? undefined : hand(stringify(result));
        };
      };
    })
    """)
nonisolated(unsafe) let sharedNumbers = UnsafeMutablePointer<Double>.allocate(capacity: 6)
nonisolated(unsafe) let sharedBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
var handedWrapperArguments: [JSValueRef?] = [
    evaluate("JSON.stringify"),
    JSObjectMakeTypedArrayWithBytesNoCopy(context, kJSTypedArrayTypeFloat64Array, sharedNumbers, 48, nil, nil, nil),
    JSObjectMakeTypedArrayWithBytesNoCopy(context, kJSTypedArrayTypeUint8Array, sharedBytes, 1024, nil, nil, nil),
]
let makeWrapper = JSValueToObject(context, JSObjectCallAsFunction(context, makeWrapperFactory, nil, 3, &handedWrapperArguments, nil), nil)!
nonisolated(unsafe) let null = JSValueMakeNull(context)
JSValueProtect(context, makeWrapper)
var exposureArguments: [JSValueRef?] = [exposure]
nonisolated(unsafe) let wrapped = JSValueToObject(
    context, JSObjectCallAsFunction(context, makeWrapper, nil, 1, &exposureArguments, nil), nil)!
JSValueProtect(context, wrapped)
nonisolated(unsafe) var handedBytes = 0
nonisolated(unsafe) var handedSeconds = 0.0
let batchEntry = JSObjectMakeFunctionWithCallback(context, nil) { context, _, _, _, _, _ in
    let vm = JSContextGetGroup(context)!
    let holder = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    lockVM!(holder, vm)
    let start = seconds()
    let key = JSStringCreateWithUTF8CString("title")
    let value = JSStringCreateWithUTF8CString("Row 1")
    for call in 0..<calls {
        let event = JSObjectMake(context, eventClass, nil)
        (sharedNumbers[0], sharedNumbers[1], sharedNumbers[2], sharedNumbers[3], sharedNumbers[4]) = (Double(call), 1, 42, 1, 1)
        var arguments: [JSValueRef?] = [event, event, JSValueMakeString(context, key), JSValueMakeString(context, value)]
        let result = JSObjectCallAsFunction(context, wrapped, nil, arguments.count, &arguments, nil)
        if result == null {
            let count = Int(sharedNumbers[5])
            handedBytes += String(decoding: UnsafeBufferPointer(start: sharedBytes, count: count), as: UTF8.self).utf8.count
        } else if let result, let text = JSValueToStringCopy(context, result, nil) {
            let size = JSStringGetMaximumUTF8CStringSize(text)
            var buffer = [CChar](repeating: 0, count: size)
            handedBytes += JSStringGetUTF8CString(text, &buffer, size)
            JSStringRelease(text)
        }
        drainMicrotasks!(vm)
    }
    JSStringRelease(key)
    JSStringRelease(value)
    handedSeconds = seconds() - start
    unlockVM!(holder)
    holder.deallocate()
    return JSValueMakeUndefined(context)
}
if lockVM != nil, unlockVM != nil, drainMicrotasks != nil {
    _ = JSObjectCallAsFunction(context, batchEntry, nil, 0, nil, nil)
    report("the exposure task as Focal calls it (handle made in JavaScript, its state passed in, lock held)", handedSeconds)
    precondition(handedBytes > 0, "the calls with handed state produced no result")
} else {
    print("the exposure task as Focal calls it: skipped (no JSC::JSLockHolder or JSC::VM::drainMicrotasks)")
}
