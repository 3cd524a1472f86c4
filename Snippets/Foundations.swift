// The code of the DocC articles of the foundation targets (FocalJSON, FocalOpLog,
// FocalPatterns, FocalEventBus, FocalRuntime), compiled so that it cannot rot, and run by
// `./Scripts/test` so that what the articles assert holds. `Scripts/check-snippets` checks
// that each article's code block is one of the slices below.

// snippet.hide
import FocalEventBus
import FocalJSON
import FocalOpLog
import FocalPatterns
import FocalRuntime

try json()
try opLog()
focusTree()
patterns()
eventBus()
print("Foundations: the articles' examples hold")

func json() throws {
    // snippet.json
    let value = try JSONValue(parsing: #"{"title": "Apples", "row": 7}"#)
    assert(value["row"]?.integerValue == 7)
    assert(value.jsonString == #"{"title":"Apples","row":7}"#)
    let literal: JSONValue = ["title": "Apples", "row": 7]
    assert(literal == value)
    // snippet.end
}

func opLog() throws {
    // snippet.op-log
    let entry = try OpDecoder.decodeEntry(#"{"op":"record","node":[4,0,7],"event":"did-select","session":"u1"}"#)
    assert(entry?.op == .record(Recording(node: NodeID(owner: 4, keys: ["0", "7"]), event: "did-select")))
    assert(Op.record(Recording(node: 2, event: "did-tap")).jsonLine == #"{"op":"record","node":2,"event":"did-tap"}"#)
    // snippet.end
}

func focusTree() {
    // snippet.focus-tree
    struct Row: FocusTreePayload {
        var count = 0
        static var vacant: Row { Row() }
    }
    let tree = FocusTree<Row>()
    assert(tree.register(1, name: "root", parent: nil) { _ in Row() } == .inserted(0))
    let cell = NodeID(owner: 70, keys: ["a"])
    assert(tree.register(cell, name: "cell", parent: 1) { _ in Row(count: 3) } == .inserted(1))
    assert(tree.register(2, name: "second root", parent: nil) { _ in Row() } == .refused(.secondRoot(existingRoot: 0)))
    assert(tree.path(of: tree.lookup(cell)!) == "/cell")
    assert(tree.removeSubtrees(withPrefix: 70) == 1)  // what `deregister 70` removes
    // snippet.end
}

func patterns() {
    // snippet.patterns
    let pattern = TaskPattern("tableView/*/did-select")
    assert(pattern.matches(path: "/master/tableView/cell", event: "did-select"))
    let path = PathPattern("/master/tableView")
    assert(!path.matches("/master/tableView/cell"))  // anchored, and whole
    // snippet.end
}

func eventBus() {
    // snippet.event-bus
    let bus = EventBus()
    let token = bus.observe("checkout") { event in print(event.arguments["total"] ?? nil) }
    bus.post("checkout", arguments: ["total": 42])
    token.cancel()
    // snippet.end
}

func runtime() throws {
    // snippet.runtime
    let runtime = try JSRuntime(timeLimit: .milliseconds(500), heapLimit: 64 << 20)
    let modules = try ModuleSystem(runtime: runtime, root: "tasks")
    let exports = try modules.require("./index")
    // snippet.end
    _ = exports
}
