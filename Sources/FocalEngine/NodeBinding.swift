import FocalJSON
import FocalOpLog
import FocalRuntime

/// The JavaScript view of nodes and events that tasks receive.
///
/// A node object is a thin handle: an instance of a JavaScript class (``members``) whose private
/// fields hold the node's arena index and generation, and every member reads the live tree when
/// it is used. A handle kept past its node's deregistration throws instead of reading a reused
/// slot. Event objects are made once per dispatch, so within one event all tasks see the same
/// objects (`latestEvent() === firstDisplayedEvent()` holds when they are the same event).
///
/// Handles and their members are JavaScript, so that making a handle and the reads a task makes
/// most cost no call into JavaScriptCore's C API (a host object is one call to make) nor into
/// host code (which drops and retakes the virtual machine's lock): a dispatch hands the task's
/// wrapper its node's index and generation, `index`, `isVisible()`, and once a task has asked for
/// them `latestEvent()`, `firstDisplayedEvent()` and the node's few plain values
/// (``beginDispatch(_:)``), and the members answer from those while the handle is the one being
/// dispatched. Any other handle, and every member of a handle once its dispatch has ended (a
/// counter in memory both sides share, moved by ``endDispatch()``), reads the live tree through
/// host functions that take the node's index and generation.
///
/// Confined to its engine's thread: the stored properties that every op touches opt out of
/// the runtime's exclusivity checks (`@exclusivity(unchecked)`).
final class NodeBinding {
    /// The engine owns the runtime and this binding, and the binding's members run only while the runtime does,
    /// so the reference cannot dangle; `unowned(unsafe)` spares the reference-count check of every read.
    unowned(unsafe) let runtime: JSRuntime
    /// The tree of the session whose event is being dispatched. A node handle from
    /// another session fails the generation check instead of reading this tree.
    @exclusivity(unchecked) var tree = NodeTree(generations: GenerationSource())

    /// Lets go of `tree`, the tree of a session that ended, if it is the one the last dispatch read: held here, it
    /// and everything its nodes hold would stay until the next dispatch of another session.
    func forget(_ tree: NodeTree) {
        if self.tree === tree { self.tree = NodeTree(generations: GenerationSource()) }
    }
    /// Event objects made during the current dispatch, so a task sees one object per event.
    /// Those made for the wrapper's arguments are alive while the dispatch runs (on its stack,
    /// then held by `enter`); the others are in ``kept`` until it ends.
    @exclusivity(unchecked) private var eventObjects: [(serial: UInt64, object: ScriptObject)] = []
    /// Attribute objects made during the current dispatch, one per event, each in ``kept``.
    @exclusivity(unchecked) private var attributeObjects: [(serial: UInt64, object: ScriptValue)] = []
    /// The objects of this dispatch that only Swift memory holds, kept from the collector until it ends.
    @exclusivity(unchecked) private var kept: KeptValues
    /// What the members and the binding tell each other without a call, in the slots ``DispatchSlot`` names (a
    /// task that reads neither events nor values costs no event object and no string). Numbers pass here rather
    /// than as arguments: a call with more than eight arguments allocates their buffer.
    private let shared: SharedNumbers
    /// The text of the string values a dispatch hands over when it is ASCII and fits: the members make a string
    /// of it only when a task reads the value (most tasks read none, or one).
    private let valueText: SharedText
    static let valueTextCapacity = 256

    /// - Throws: when the members cannot be defined (setup code that does not fail but under a
    ///   limit it should not meet).
    init(runtime: JSRuntime) throws(ScriptError) {
        self.runtime = runtime
        kept = KeptValues(in: runtime)
        shared = try SharedNumbers(count: DispatchSlot.count(handing: Self.handedValueLimit), in: runtime)
        valueText = try SharedText(capacity: Self.valueTextCapacity, in: runtime)
        (enter, nodePrototype) = try Self.defineNodes(shared: shared.array.value, valueText: valueText.bytes.value, in: runtime)
        // The engine owns the runtime and this binding, and keeps the binding for as long as the runtime runs tasks.
        runtime.setHost(self)
    }

    /// The class for the global object, which carries the binding as the runtime's host.
    static let globalClass = HostClass.global

    /// The prototypes of node objects, which every node object of every session inherits from (frozen by the
    /// engine's lockdown): `[node]`. Event objects inherit from `Object.prototype`, which the lockdown freezes too.
    ///
    /// The node prototype is the JavaScript class's, without its `constructor` (a task cannot make
    /// a handle). Its members are held by non-writable, non-configurable properties, so frozen they are out of every
    /// session's reach. Kept alive for as long as the binding lives.
    var sharedPrototypes: [ScriptObject] { [nodePrototype.value] }

    private let nodePrototype: ProtectedValue
    /// `enter(latestEvent, firstDisplayedEvent, k0, v0, k1, v1, k2, v2)`, which the task wrapper calls first with the
    /// arguments of ``beginDispatch(_:)`` (see ``TaskScripts``), the rest of the dispatch being in ``shared``; it
    /// returns the dispatch's node handle, the same for every task it calls.
    let enter: ProtectedValue

    /// The arguments of a task's wrapper for one dispatch (its numbers are in ``shared``): the node's events, and up
    /// to ``handedValueLimit`` plain values as key path and value pairs. Eight at most: JavaScriptCore keeps that
    /// many arguments of a call inline and allocates a buffer for more. Kept on the stack, where the collector sees
    /// them.
    typealias DispatchArguments = (
        latest: ScriptValue?, first: ScriptValue?,
        pairs: (ScriptValue?, ScriptValue?, ScriptValue?, ScriptValue?, ScriptValue?, ScriptValue?)
    )

    /// Starts the dispatch of an event on the node at `index` of ``tree``: the arguments for
    /// every task it calls. End it with ``endDispatch()``. Events and values are handed over once
    /// a task has asked for them (`undefined` until then, which the members read through host
    /// code).
    func beginDispatch(_ index: Int32) -> DispatchArguments {
        // The record is read in place: a copy of its state would retain and release its history and values.
        shared[.nodeSlot] = Double(index)
        shared[.nodeGeneration] = Double(tree[index].generation)
        shared[.nodeIndex] = tree[index].payload.index.map(Double.init) ?? .nan
        shared[.isVisible] = tree[index].payload.state.isVisible ? 1 : 0
        let wantsEvents = shared[.wantsEvents] != 0
        var arguments: DispatchArguments = (
            wantsEvents ? makeLatestEvent(index, handed: true) : runtime.undefined,
            wantsEvents ? makeEvent(tree[index].payload.state.firstDisplayed, handed: true) : runtime.undefined,
            (nil, nil, nil, nil, nil, nil)
        )
        shared[.handedCount] =
            shared[.wantsValues] != 0
            ? Double(withUnsafeMutableBytes(of: &arguments.pairs) { handValues(tree[index].payload.state.values, into: $0) }) : .nan
        return arguments
    }

    /// The most values of a node that a dispatch hands over; `latestValue` reads a node with more
    /// through host code.
    static let handedValueLimit = 3

    /// The key paths handed over, as JavaScript strings made once: the same few key paths (`title`)
    /// come with every node, and making a string from Swift's takes two copies. Bounded: past
    /// ``keyPathStringLimit`` it starts afresh.
    @exclusivity(unchecked) private var keyPathStrings: [String: ProtectedValue] = [:]
    static let keyPathStringLimit = 256
    /// The first few of ``keyPathStrings`` (those made first are those every node has), searched in order before
    /// it: comparing a short key path costs less than hashing it, which every value handed over did.
    @exclusivity(unchecked) private var firstKeyPathStrings: [(keyPath: String, string: ScriptValue)] = []
    private static let firstKeyPathLimit = 4

    private func keyPathString(_ keyPath: String) -> ScriptValue {
        for first in firstKeyPathStrings where first.keyPath.hasSameText(as: keyPath) { return first.string }
        if let string = keyPathStrings[keyPath] { return string.value }
        if keyPathStrings.count >= Self.keyPathStringLimit {
            firstKeyPathStrings.removeAll()
            keyPathStrings.removeAll()
        }
        let string = runtime.protect(runtime.makeString(keyPath))
        keyPathStrings[keyPath] = string
        if firstKeyPathStrings.count < Self.firstKeyPathLimit { firstKeyPathStrings.append((keyPath, string.value)) }
        return string.value
    }

    /// Writes the node's string, number and boolean values into `pairs` as key path and value, and
    /// returns how many it wrote: none when the node has more than ``handedValueLimit``. (An object or
    /// array is made afresh at every read, so that a task that changes one cannot change what the next
    /// read gives.) The pairs are arguments of the wrapper, not an array: making one is a call into
    /// JavaScriptCore and a cell to collect at every dispatch. A string's text goes into ``valueText`` when it is
    /// ASCII and fits, its value left `undefined` (see ``shared``); any other string is made here.
    private func handValues(_ values: NodeValues, into pairs: UnsafeMutableRawBufferPointer) -> Int {
        guard values.count <= Self.handedValueLimit else { return 0 }
        let elements = pairs.bindMemory(to: ScriptValue?.self)
        var count = 0
        var texts = 0
        var textEnd = 0
        for position in 0..<values.count {
            let value: ScriptValue?
            switch values[position: position].value.value {
            case .string(let text):
                if let end = valueText.write(text, at: textEnd) {
                    shared[DispatchSlot.textStart(of: count)] = Double(textEnd)
                    shared[DispatchSlot.textStart(of: count) + 1] = Double(end - textEnd)
                    texts |= 1 << count
                    textEnd = end
                    value = nil
                } else {
                    value = runtime.makeString(text)
                }
            case .number(let number): value = runtime.makeNumber(number)
            case .bool(let bool): value = runtime.makeBoolean(bool)
            case .null, .array, .object: continue
            }
            // The value is on the stack before the key path's string is made (which may collect).
            elements[2 * count + 1] = value
            elements[2 * count] = keyPathString(values[position: position].key)
            count += 1
        }
        shared[.textValues] = Double(texts)
        return count
    }

    /// `[slot, generation]` of the node at `index`, from which ``members`` make its handle.
    private func handle(_ index: Int32) -> ScriptValue {
        withUnsafeTemporaryAllocation(of: ScriptValue?.self, capacity: 2) { pair in
            pair[0] = runtime.makeNumber(Double(index))
            pair[1] = runtime.makeNumber(Double(tree[index].generation))
            return runtime.makeArray(UnsafeBufferPointer(pair))
        }
    }

    /// Ends the dispatch: its handle's members read the tree again, and its event objects are
    /// forgotten.
    func endDispatch() {
        shared[.endedDispatches] += 1
        kept.releaseAll()
        eventObjects.removeAll(keepingCapacity: true)
        attributeObjects.removeAll(keepingCapacity: true)
    }

    /// The object of the event `shared` holds, for this dispatch; `handed` when it is made for the wrapper's
    /// arguments. Its members are read lazily: most tasks only compare events, so the attributes object is built
    /// only when asked for.
    private func makeEvent(_ shared: SharedEvent?, handed: Bool = false) -> ScriptValue {
        guard let shared else { return runtime.null }
        return madeEvent(shared.event.serial) ?? makeEventObject(shared, handed: handed)
    }

    /// The object of the latest event of the node at `index`, for this dispatch (see ``NodeState/sharedLatestEvent()``).
    private func makeLatestEvent(_ index: Int32, handed: Bool = false) -> ScriptValue {
        guard let serial = tree[index].payload.state.latestEventSerial else { return runtime.null }
        if let object = madeEvent(serial) { return object }
        return tree[index].payload.state.sharedLatestEvent().map { makeEventObject($0, handed: handed) } ?? runtime.null
    }

    /// The object made for the event `serial` in this dispatch, if one was.
    private func madeEvent(_ serial: UInt64) -> ScriptValue? {
        for (made, object) in eventObjects where made == serial { return object }
        return nil
    }

    private func makeEventObject(_ shared: SharedEvent, handed: Bool) -> ScriptValue {
        let object = Self.eventClass.makeObject(in: runtime, payload: shared)
        if !handed { kept.keep(object) }
        eventObjects.append((shared.event.serial, object))
        return object
    }

    /// `event.attributes` (also `event.properties`): the same object for one event within a dispatch.
    private func attributes(of event: Event) -> ScriptValue {
        for (made, object) in attributeObjects where made == event.serial { return object }
        let object = runtime.makeValue(.object(event.attributes))
        kept.keep(object)
        attributeObjects.append((event.serial, object))
        return object
    }

    // MARK: The event class

    private static let eventValues: [(name: String, get: HostObjectClass<SharedEvent>.Getter)] = [
        ("name", { shared, call in binding(call).map { $0.runtime.makeString(shared.event.name) } }),
        ("nodeName", { shared, call in binding(call).map { $0.runtime.makeString(shared.event.name) } }),
        ("attributes", { shared, call in binding(call).map { $0.attributes(of: shared.event) } }),
        ("properties", { shared, call in binding(call).map { $0.attributes(of: shared.event) } }),
        ("time", { shared, call in binding(call).map { $0.runtime.makeNumber(Double(shared.event.time)) } }),
    ]

    /// The class of event objects, which carry their event. Its members are getters, so it needs no prototype of its own.
    static let eventClass = HostObjectClass<SharedEvent>(name: "Event", getters: eventValues, ownPrototype: false)

    // MARK: The nodes' host functions

    private static func binding(_ call: HostCall) -> NodeBinding? {
        guard let binding = call.host(as: NodeBinding.self) else { return nil }
        // JavaScript runs a node's or an event's members only inside a way into the engine, on the thread inside.
        assert(binding.runtime.confinement.isHeldByCurrentThread, "a node or event read on a thread outside its engine")
        return binding
    }

    /// Runs `body` with the binding, the live node's index and its tree, or raises a
    /// ReferenceError. The node is the call's first two arguments, its arena index and
    /// generation (the handle's private fields, which only ``members`` read). Members read the
    /// record in place (`tree[i].name`): passing a copy of the record would retain and release
    /// each of its strings, arrays and events.
    private static func withNode(_ call: HostCall, _ body: (NodeBinding, Int32, NodeTree) -> ScriptValue?) -> ScriptValue? {
        guard let binding = binding(call) else { return nil }
        guard let slot = call.numberArgument(0), let generation = call.numberArgument(1), slot >= 0, slot < 0x8000_0000,
            generation >= 0, generation <= Double(UInt32.max), slot.rounded() == slot, generation.rounded() == generation
        else { return call.throwing(binding.runtime.makeError("TypeError", "not a node")) }
        let index = Int32(slot)
        let tree = binding.tree
        guard tree.isLive(index, generation: UInt32(generation)) else {
            return call.throwing(binding.runtime.makeError("ReferenceError", "this node has been deregistered"))
        }
        return body(binding, index, tree)
    }

    /// The key-path argument of `latestValue(kp)` and `valueFirstDisplayedEvent(kp)` (the third,
    /// after the node), or `nil` when it is not a string. A key path longer than
    /// ``OpLogLimits/keyPathLength`` bytes is `nil` with a `RangeError` thrown by the call.
    private static func keyPath(_ binding: NodeBinding, _ call: HostCall) -> String? {
        guard let value = call.argument(2) else { return nil }
        do throws(ScriptError) {
            return try binding.runtime.string(value, maximumUTF8Count: OpLogLimits.keyPathLength, what: "a key path")
        } catch {
            call.throwing(binding.runtime.makeError(error.name, error.message))
            return nil
        }
    }

    /// The members read from the tree, one host function each, which ``members`` call for any
    /// handle but the dispatched one (and for the members a dispatch does not hand over), with the
    /// node's index and generation first. `parentNode` and `ancestor` give `[slot, generation]`.
    private static let hostMembers: [(name: String, call: HostMethod)] = [
        ("nodeName", HostMethod { call in withNode(call) { b, i, t in b.runtime.makeString(t[i].name) } }),
        (
            "index",
            HostMethod { call in withNode(call) { b, i, t in t[i].payload.index.map { b.runtime.makeNumber(Double($0)) } ?? b.runtime.null }
            }
        ),
        ("path", HostMethod { call in withNode(call) { b, i, t in b.runtime.makeString(t.path(of: i)) } }),
        (
            "parentNode",
            HostMethod { call in withNode(call) { b, i, t in t[i].parent == NodeTree.none ? b.runtime.null : b.handle(t[i].parent) } }
        ),
        ("attributes", HostMethod { call in withNode(call) { b, i, t in b.runtime.makeValue(.object(NodeBinding.attributes(of: t[i]))) } }),
        (
            "ancestor",
            HostMethod { call in
                withNode(call) { b, i, tree in
                    let steps = call.numberArgument(2) ?? 0
                    guard steps >= 0, steps.rounded() == steps else {
                        return call.throwing(b.runtime.makeError("RangeError", "ancestor(n) needs a whole number n ≥ 0"))
                    }
                    var current = i
                    for _ in 0..<Int(min(steps, 1e9)) {
                        current = tree[current].parent
                        if current == NodeTree.none { return b.runtime.null }
                    }
                    return b.handle(current)
                }
            }
        ),
        ("latestEvent", HostMethod { call in withNode(call) { b, i, _ in b.makeLatestEvent(i) } }),
        ("isVisible", HostMethod { call in withNode(call) { b, i, t in b.runtime.makeBoolean(t[i].payload.state.isVisible) } }),
        ("firstDisplayedEvent", HostMethod { call in withNode(call) { b, i, t in b.makeEvent(t[i].payload.state.firstDisplayed) } }),
        (
            "latestValue",
            HostMethod { call in
                withNode(call) { b, i, t in
                    guard let key = keyPath(b, call), let value = t[i].payload.state.values[key]?.value else { return b.runtime.undefined }
                    return b.runtime.makeValue(value)
                }
            }
        ),
        (
            "valueFirstDisplayedEvent",
            HostMethod { call in
                withNode(call) { b, i, t in
                    guard let key = keyPath(b, call) else { return b.runtime.null }
                    return b.makeEvent(t[i].payload.state.values[key]?.firstDisplayed)
                }
            }
        ),
    ]

    /// `{ id, class: "ana-node", createdAt, index? }` plus the registered attributes,
    /// which cannot override the first three.
    static func attributes(of record: NodeTree.Node) -> JSONObject {
        var attributes: JSONObject = [
            "id": .string(record.id.description),
            "class": "ana-node",
            "createdAt": .number(Double(record.payload.createdAt)),
        ]
        if let index = record.payload.index { attributes["index"] = .number(Double(index)) }
        for (key, value) in record.payload.attributes ?? JSONObject() where attributes[key] == nil {
            attributes[key] = value
        }
        return attributes
    }

    /// The node class, its members over the host functions: the properties as accessors, the
    /// methods as functions, each held by a non-writable (for a function), non-configurable,
    /// enumerable property of the prototype. Returns `[enter, prototype]` (see ``enter``). It runs
    /// as the engine starts, before any task code.
    private static let members = """
        (function (getDescriptors, defineProperty, toStringTag, fromCharCode) {
          'use strict';
          return function (shared, bytes, nodeName, index, path, parentNode, attributes, ancestor, latestEvent, isVisible,
              firstDisplayedEvent, latestValue, valueFirstDisplayedEvent) {
            // The dispatch the wrapper entered with: its handle, the counter then, and its values.
            let node = null, at = -1, nodeIndex = null, latest = null, first = null, visible = false;
            // The values handed over: how many (`undefined`: none asked for yet), then key path and value pairs, and
            // which values are still text in `bytes` (bit j for vj, whose text starts at shared[\(DispatchSlot.firstText.javaScript) + 2j]).
            let count = 0, k0, v0, k1, v1, k2, v2, texts = 0;
            // The string of the n ASCII bytes of `bytes` from s, in pieces of at most 16 characters.
            const text = (s, n) => {
              const b = bytes;
              switch (n) {
                case 0: return '';
        \(textCases)
                default: return text(s, 16) + text(s + 16, n - 16);
              }
            };
            // Value j when it is text in `bytes`, made into a string at its first read in the dispatch.
            const made = j => { texts &= ~(1 << j); return text(shared[\(DispatchSlot.firstText.rawValue) + 2 * j] | 0, shared[\(DispatchSlot.firstText.rawValue + 1) + 2 * j] | 0); };
            const handle = pair => pair === null ? null : new Node(pair[0], pair[1]);
            // Whether `self` is the dispatched handle and its dispatch has not ended.
            const dispatched = self => self === node && shared[\(DispatchSlot.endedDispatches.javaScript)] === at;
            class Node {
              #slot; #generation;
              constructor(slot, generation) { this.#slot = slot; this.#generation = generation; }
              get nodeName() { return nodeName(this.#slot, this.#generation); }
              get index() { return dispatched(this) ? nodeIndex : index(this.#slot, this.#generation); }
              get path() { return path(this.#slot, this.#generation); }
              get parentNode() { return handle(parentNode(this.#slot, this.#generation)); }
              get attributes() { return attributes(this.#slot, this.#generation); }
              ancestor(n) { return handle(ancestor(this.#slot, this.#generation, n)); }
              latestEvent() {
                if (dispatched(this)) { if (latest !== undefined) return latest; shared[\(DispatchSlot.wantsEvents.javaScript)] = 1; }
                return latestEvent(this.#slot, this.#generation);
              }
              isVisible() { return dispatched(this) ? visible : isVisible(this.#slot, this.#generation); }
              firstDisplayedEvent() {
                if (dispatched(this)) { if (first !== undefined) return first; shared[\(DispatchSlot.wantsEvents.javaScript)] = 1; }
                return firstDisplayedEvent(this.#slot, this.#generation);
              }
              latestValue(keyPath) {
                if (dispatched(this)) {
                  if (count === undefined) shared[\(DispatchSlot.wantsValues.javaScript)] = 1;
                  else if (count > 0) {
                    if (k0 === keyPath) return texts & 1 ? (v0 = made(0)) : v0;
                    if (count > 1) {
                      if (k1 === keyPath) return texts & 2 ? (v1 = made(1)) : v1;
                      if (count > 2 && k2 === keyPath) return texts & 4 ? (v2 = made(2)) : v2;
                    }
                  }
                }
                return latestValue(this.#slot, this.#generation, keyPath);
              }
              valueFirstDisplayedEvent(keyPath) { return valueFirstDisplayedEvent(this.#slot, this.#generation, keyPath); }
            }
            const prototype = Node.prototype;
            delete prototype.constructor;
            const members = getDescriptors(prototype);
            for (const name in members) {
              const member = members[name];
              member.configurable = false;
              member.enumerable = true;
              if ('value' in member) member.writable = false;
              defineProperty(prototype, name, member);
            }
            defineProperty(prototype, toStringTag, { value: 'Node' });
            function enter(l, f, a0, b0, a1, b1, a2, b2) {
              // One handle per dispatch, the same for each task it calls, with the values made for the first.
              if (node !== null && shared[\(DispatchSlot.endedDispatches.javaScript)] === at) return node;
              node = new Node(shared[\(DispatchSlot.nodeSlot.javaScript)], shared[\(DispatchSlot.nodeGeneration.javaScript)]);
              at = shared[\(DispatchSlot.endedDispatches.javaScript)]; latest = l; first = f;
              visible = shared[\(DispatchSlot.isVisible.javaScript)] !== 0;
              nodeIndex = shared[\(DispatchSlot.nodeIndex.javaScript)]; if (nodeIndex !== nodeIndex) nodeIndex = null;
              count = shared[\(DispatchSlot.handedCount.javaScript)]; if (count !== count) count = undefined;
              k0 = a0; v0 = b0; k1 = a1; v1 = b1; k2 = a2; v2 = b2; texts = shared[\(DispatchSlot.textValues.javaScript)];
              return node;
            }
            return [enter, prototype];
          };
        })(Object.getOwnPropertyDescriptors, Object.defineProperty, Symbol.toStringTag, String.fromCharCode)
        """

    /// `case n: return fromCharCode(b[s], …, b[s + n - 1]);` for n from 1 to 16, the cases of the members' `text`.
    private static let textCases = (1...16).map { n in
        "case \(n): return fromCharCode(" + (0..<n).map { $0 == 0 ? "b[s]" : "b[s + \($0)]" }.joined(separator: ", ") + ");"
    }.joined(separator: "\n        ")

    /// Makes the node class (``members``) over ``hostMembers``, sharing `shared` (``shared``'s
    /// `Float64Array`); returns `enter` and the class's prototype.
    private static func defineNodes(shared: ScriptValue, valueText: ScriptValue, in runtime: JSRuntime) throws(ScriptError)
        -> (enter: ProtectedValue, prototype: ProtectedValue)
    {
        // Protected until the members hold them: an array in Swift memory is out of the collector's sight.
        let host = hostMembers.map { runtime.protect(HostClass.makeMethod(in: runtime, name: $0.name, $0.call)) }
        let factory = runtime.protect(try runtime.evaluate(members, sourceURL: "<focal>"))
        guard let function = factory.object,
            let pair = runtime.object(try runtime.call(function, arguments: [shared, valueText] + host.map(\.value)))
        else { throw ScriptError(name: "Error", message: "could not make the node class") }
        return (runtime.protect(runtime.element(pair, at: 0)), runtime.protect(runtime.element(pair, at: 1)))
    }
}
