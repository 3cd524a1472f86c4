#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CJavaScriptCore
import FocalJSON
import FocalOpLog
import FocalRuntime

/// The JavaScript view of nodes and events that tasks receive.
///
/// A node object is a thin handle: its private data is the node's arena index and
/// generation packed into one word, and every member reads the live tree when it is
/// used. A handle kept past its node's deregistration throws instead of reading a
/// reused slot. Event objects are made once per dispatch, so within one event all
/// tasks see the same objects (`latestEvent() === firstDisplayedEvent()` holds when
/// they are the same event).
///
/// Confined to its engine's thread: the stored properties that every op touches opt out of
/// the runtime's exclusivity checks (`@exclusivity(unchecked)`).
final class NodeBinding {
    unowned let runtime: JSRuntime
    /// The tree of the session whose event is being dispatched. A node handle from
    /// another session fails the generation check instead of reading this tree.
    @exclusivity(unchecked) var tree = NodeTree(generations: GenerationSource())
    /// Event objects made during the current dispatch (protected until it ends), so a
    /// task sees one object per event.
    @exclusivity(unchecked) private var eventObjects: [(event: Event, object: JSObjectRef)] = []
    /// Attribute objects made during the current dispatch, one per event.
    @exclusivity(unchecked) private var attributeObjects: [(event: Event, object: JSValueRef)] = []

    init(runtime: JSRuntime) {
        self.runtime = runtime
        let context = runtime.context
        let nodePrototype = JSObjectMake(context, nil, nil)!
        for (name, call) in Self.functions {
            let jsName = JSStringCreateWithUTF8CString(name)
            defer { JSStringRelease(jsName) }
            JSObjectSetProperty(context, nodePrototype, jsName, JSObjectMakeFunctionWithCallback(context, jsName, call), Self.memberAttributes, nil)
        }
        self.nodePrototype = runtime.protect(nodePrototype)
        eventPrototype = runtime.protect(JSObjectMake(context, nil, nil)!)
        JSObjectSetPrivate(runtime.globalObject, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The class for the global object, which carries the binding as private data.
    nonisolated(unsafe) static let globalClass: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(strdup("global"))
        return JSRuntime.makeClass(&definition)
    }()

    /// The prototypes of node and event objects, which every node and event object of every
    /// session inherits from (frozen by the engine's lockdown): `[node, event]`.
    ///
    /// They are plain JavaScript objects, not the prototypes JavaScriptCore makes for a C API
    /// class: the static functions of such a prototype stay configurable whatever
    /// `Object.freeze` does, so one session could replace `ancestor` for all. Here the node
    /// methods are ordinary functions held by non-writable, non-configurable properties, so
    /// frozen they are out of every session's reach. The classes have no automatic
    /// prototype, and ``makeNode(_:)`` and events set these ones instead (as JavaScriptCore
    /// would set its own), kept alive for as long as the binding lives.
    var sharedPrototypes: [JSObjectRef] { [nodePrototype.value, eventPrototype.value] }

    private let nodePrototype: ProtectedValue
    private let eventPrototype: ProtectedValue

    /// A handle on the node at `index`.
    func makeNode(_ index: Int32) -> JSObjectRef {
        let generation = tree[index].generation
        let bits = (UInt64(generation) << 32 | UInt64(UInt32(bitPattern: index))) &+ 1
        let node = JSObjectMake(runtime.context, Self.nodeClass, UnsafeMutableRawPointer(bitPattern: UInt(bits)))!
        JSObjectSetPrototype(runtime.context, node, nodePrototype.value)
        return node
    }

    /// Forgets the event objects of the dispatch that just ended.
    func endDispatch() {
        for (_, object) in eventObjects { JSValueUnprotect(runtime.context, object) }
        for (_, object) in attributeObjects { JSValueUnprotect(runtime.context, object) }
        eventObjects.removeAll(keepingCapacity: true)
        attributeObjects.removeAll(keepingCapacity: true)
    }

    /// The event's object for this dispatch. Its members are read lazily: most tasks
    /// only compare events, so the attributes object is built only when asked for.
    private func makeEvent(_ event: Event?) -> JSValueRef {
        guard let event else { return runtime.null }
        for (cached, object) in eventObjects where cached === event { return object }
        let object = JSObjectMake(runtime.context, Self.eventClass, Unmanaged.passRetained(event).toOpaque())!
        JSObjectSetPrototype(runtime.context, object, eventPrototype.value)
        JSValueProtect(runtime.context, object)
        eventObjects.append((event, object))
        return object
    }

    /// `event.attributes` (also `event.properties`): the same object for one event within a dispatch.
    private func attributes(of event: Event) -> JSValueRef {
        for (cached, object) in attributeObjects where cached === event { return object }
        let object = runtime.makeValue(.object(event.attributes))
        JSValueProtect(runtime.context, object)
        attributeObjects.append((event, object))
        return object
    }

    // MARK: The event class

    private static func withEvent(_ context: JSContextRef?, _ object: JSObjectRef?, _ body: (NodeBinding, Event) -> JSValueRef?) -> JSValueRef? {
        guard let binding = binding(context), let object, let raw = JSObjectGetPrivate(object) else { return nil }
        return body(binding, Unmanaged<Event>.fromOpaque(raw).takeUnretainedValue())
    }

    private static let eventValues: [(String, JSObjectGetPropertyCallback)] = [
        ("name", { c, o, _, _ in withEvent(c, o) { b, e in b.runtime.makeString(e.name) } }),
        ("nodeName", { c, o, _, _ in withEvent(c, o) { b, e in b.runtime.makeString(e.name) } }),
        ("attributes", { c, o, _, _ in withEvent(c, o) { b, e in b.attributes(of: e) } }),
        ("properties", { c, o, _, _ in withEvent(c, o) { b, e in b.attributes(of: e) } }),
        ("time", { c, o, _, _ in withEvent(c, o) { b, e in b.runtime.makeNumber(Double(e.time)) } }),
    ]

    nonisolated(unsafe) static let eventClass: JSClassRef = makeClass(name: "Event", values: eventValues) { object in
        guard let object, let raw = JSObjectGetPrivate(object) else { return }
        Unmanaged<Event>.fromOpaque(raw).release()
    }

    // MARK: The node class

    private static func binding(_ context: JSContextRef?) -> NodeBinding? {
        guard let context, let raw = JSObjectGetPrivate(JSContextGetGlobalObject(context)) else { return nil }
        return Unmanaged<NodeBinding>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with the binding, the live node's index and its tree, or raises a
    /// TypeError. Members read the record in place (`tree[i].name`): passing a copy of
    /// the record would retain and release each of its strings, arrays and events.
    private static func withNode(
        _ context: JSContextRef?, _ object: JSObjectRef?, _ exception: UnsafeMutablePointer<JSValueRef?>?,
        _ body: (NodeBinding, Int32, NodeTree) -> JSValueRef?
    ) -> JSValueRef? {
        guard let binding = binding(context) else { return nil }
        guard let object, let raw = JSObjectGetPrivate(object) else {
            exception?.pointee = binding.runtime.makeError("TypeError", "node methods must be called on a node")
            return nil
        }
        let bits = UInt64(UInt(bitPattern: raw)) &- 1
        let index = Int32(bitPattern: UInt32(truncatingIfNeeded: bits))
        let generation = UInt32(truncatingIfNeeded: bits >> 32)
        let tree = binding.tree
        guard tree.isLive(index, generation: generation) else {
            exception?.pointee = binding.runtime.makeError("ReferenceError", "this node has been deregistered")
            return nil
        }
        return body(binding, index, tree)
    }

    /// The key-path argument of `latestValue(kp)` and `valueFirstDisplayedEvent(kp)`, or
    /// `nil` when it is not a string. A key path longer than ``OpLogLimits/keyPathLength``
    /// bytes is `nil` with a `RangeError` in `exception`, which the call then throws.
    private static func keyPath(
        _ binding: NodeBinding, _ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, _ exception: UnsafeMutablePointer<JSValueRef?>?
    ) -> String? {
        guard count > 0, let value = arguments?[0] else { return nil }
        do throws(ScriptError) {
            return try binding.runtime.string(value, maximumUTF8Count: OpLogLimits.keyPathLength, what: "a key path")
        } catch {
            exception?.pointee = binding.runtime.makeError(error.name, error.message)
            return nil
        }
    }

    private static let values: [(String, JSObjectGetPropertyCallback)] = [
        ("nodeName", { c, o, _, e in withNode(c, o, e) { b, i, t in b.runtime.makeString(t[i].name) } }),
        ("index", { c, o, _, e in withNode(c, o, e) { b, i, t in t[i].payload.index.map { b.runtime.makeNumber(Double($0)) } ?? b.runtime.null } }),
        ("path", { c, o, _, e in withNode(c, o, e) { b, i, t in b.runtime.makeString(t.path(of: i)) } }),
        ("parentNode", { c, o, _, e in withNode(c, o, e) { b, i, t in t[i].parent == NodeTree.none ? b.runtime.null : b.makeNode(t[i].parent) } }),
        ("attributes", { c, o, _, e in withNode(c, o, e) { b, i, t in b.runtime.makeValue(.object(NodeBinding.attributes(of: t[i]))) } }),
    ]

    /// The node methods, on ``sharedPrototypes``' node prototype.
    private static let functions: [(String, JSObjectCallAsFunctionCallback)] = [
        ("ancestor", { c, _, o, n, a, e in
            withNode(c, o, e) { b, i, tree in
                var steps = 0.0
                if n > 0, let value = a?[0], !JSValueIsUndefined(c, value) { steps = JSValueToNumber(c, value, nil) }
                guard steps >= 0, steps.rounded() == steps else {
                    e?.pointee = b.runtime.makeError("RangeError", "ancestor(n) needs a whole number n ≥ 0")
                    return nil
                }
                var current = i
                for _ in 0..<Int(min(steps, 1e9)) {
                    current = tree[current].parent
                    if current == NodeTree.none { return b.runtime.null }
                }
                return b.makeNode(current)
            }
        }),
        ("latestEvent", { c, _, o, _, _, e in withNode(c, o, e) { b, i, t in b.makeEvent(t[i].payload.state.latestEvent) } }),
        ("isVisible", { c, _, o, _, _, e in withNode(c, o, e) { b, i, t in b.runtime.makeBoolean(t[i].payload.state.isVisible) } }),
        ("firstDisplayedEvent", { c, _, o, _, _, e in withNode(c, o, e) { b, i, t in b.makeEvent(t[i].payload.state.firstDisplayedEvent) } }),
        ("latestValue", { c, _, o, n, a, e in
            withNode(c, o, e) { b, i, t in
                guard let key = keyPath(b, n, a, e), let value = t[i].payload.state.values[key]?.value else { return b.runtime.undefined }
                return b.runtime.makeValue(value)
            }
        }),
        ("valueFirstDisplayedEvent", { c, _, o, n, a, e in
            withNode(c, o, e) { b, i, t in
                guard let key = keyPath(b, n, a, e) else { return b.runtime.null }
                return b.makeEvent(t[i].payload.state.values[key]?.firstDisplayedEvent)
            }
        }),
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

    nonisolated(unsafe) static let nodeClass: JSClassRef = makeClass(name: "Node", values: values, finalize: nil)

    /// Read-only and non-configurable: what members of nodes, events and their prototypes are.
    private static let memberAttributes = JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete)

    /// A class with read-only static values and no automatic prototype (the binding sets
    /// its own). The definitions are made once per process and must outlive the class, so
    /// they are never freed.
    private static func makeClass(name: String, values: [(String, JSObjectGetPropertyCallback)], finalize: JSObjectFinalizeCallback?) -> JSClassRef {
        let valueDefinitions = values.map { name, get in
            JSStaticValue(name: UnsafePointer(strdup(name)), getProperty: get, setProperty: nil, attributes: memberAttributes)
        } + [JSStaticValue(name: nil, getProperty: nil, setProperty: nil, attributes: 0)]
        let staticValues = UnsafeMutablePointer<JSStaticValue>.allocate(capacity: valueDefinitions.count)
        staticValues.initialize(from: valueDefinitions, count: valueDefinitions.count)
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(strdup(name))
        definition.attributes = JSClassAttributes(kJSClassAttributeNoAutomaticPrototype)
        definition.staticValues = UnsafePointer(staticValues)
        definition.finalize = finalize
        return JSRuntime.makeClass(&definition)
    }
}
