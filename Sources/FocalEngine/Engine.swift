import FocalJSON
import FocalOpLog
import FocalRuntime

/// The focus-path engine: a tree of named nodes, the tasks that watch it, and the
/// JavaScript runtime that runs them.
///
/// An engine is **confined** to one thread or task at a time (it is not `Sendable`);
/// ``Manager`` wraps one in an actor for concurrent use. Engines share nothing, so a
/// server can run many in parallel.
///
/// Ops are applied with ``apply(_:line:)``. Results, errors and snapshots go to the
/// ``observer`` synchronously, in order. Errors never stop the engine. Events on nodes
/// that no task can match never enter JavaScript.
public final class Engine {
    public let configuration: EngineConfiguration
    /// Receives results, errors and snapshots.
    public weak var observer: (any EngineObserver)?

    let runtime: JSRuntime
    let tree = NodeTree()
    let library: TaskLibrary
    private let binding: NodeBinding
    private var symbols = SymbolTable()
    private var automaton: MatchAutomaton
    private var currentLine: Int?

    /// Creates an engine for the tasks in `configuration.tasksDirectory`.
    /// - Throws: when the tasks directory does not exist.
    public init(configuration: EngineConfiguration, observer: (any EngineObserver)? = nil) throws(EngineError) {
        self.configuration = configuration
        self.observer = observer
        runtime = JSRuntime(timeLimit: configuration.timeLimit, globalObjectClass: NodeBinding.globalClass)
        runtime.installConsole(logger: configuration.consoleLogger)
        do throws(ScriptError) {
            library = try TaskLibrary(runtime: runtime, tasksDirectory: configuration.tasksDirectory)
        } catch {
            throw EngineError(.taskFileFailed, error.message, script: error)
        }
        binding = NodeBinding(runtime: runtime, tree: tree)
        automaton = MatchAutomaton(tasks: [], symbols: &symbols)
        library.report = { [unowned self] error in
            var error = error
            error.line = error.line ?? self.currentLine
            self.report(error)
        }
    }

    /// The number of live nodes.
    public var nodeCount: Int { tree.count }

    /// The number of loaded tasks.
    public var taskCount: Int { library.tasks.count }

    /// Applies one op. `line` is the op-log line it came from, for error messages.
    public func apply(_ op: Op, line: Int? = nil) {
        currentLine = line
        defer { currentLine = nil }
        switch op {
        case .register(let registration): register(registration)
        case .record(let recording): record(recording)
        case .deregister(let deregistration): deregister(deregistration)
        case .snapshot(let format): observer?.engine(self, didTakeSnapshot: snapshot(format: format), format: format)
        }
    }

    /// Decodes and applies one op-log line; a line that is not a valid op is reported.
    public func apply(line bytes: UnsafeRawBufferPointer, number: Int? = nil) {
        do throws(OpLogError) {
            guard let op = try OpDecoder.decode(bytes) else { return }
            apply(op, line: number)
        } catch {
            report(EngineError(.malformedOp, error.message, line: number))
        }
    }

    // MARK: Ops

    private func register(_ r: Registration) {
        if configuration.debug, library.reloadIfChanged(line: currentLine) { rebuildAutomaton() }
        guard !r.name.isEmpty, !r.name.contains("/") else {
            return fail(.invalidOp, "invalid name '\(r.name)' for node \(r.node): a name must be non-empty and must not contain '/'")
        }
        var namespaceFile: String?
        if let namespace = r.namespace {
            switch TaskLibrary.file(forNamespace: namespace) {
            case .success(let file): namespaceFile = file
            case .failure(let error): return fail(error.kind, "node \(r.node): \(error.message)")
            }
        }
        var parentIndex = NodeTree.none
        if let parent = r.parent {
            guard let found = tree.lookup(parent) else {
                return fail(.invalidOp, "cannot register node \(r.node) ('\(r.name)'): its parent \(parent) is not registered")
            }
            parentIndex = found
        }
        let time = r.time ?? configuration.clock.now()
        if let existing = tree.lookup(r.node) {
            guard r.node.isKeyed else {
                return fail(.invalidOp, "node \(r.node) ('\(r.name)') is already registered; an owned id can be registered only once")
            }
            guard reuse(existing, r, parentIndex) else { return }
        } else {
            if r.parent == nil, tree.root != NodeTree.none {
                return fail(.invalidOp, "cannot register node \(r.node) ('\(r.name)') as a root: the root \(tree[tree.root].id) is already registered")
            }
            let symbol = symbols.symbol(for: r.name)
            let state = parentIndex == NodeTree.none ? automaton.rootState : automaton.transition(from: tree[parentIndex].matchState, name: symbol)
            let record = NodeTree.Record(
                id: r.node, name: r.name, symbol: symbol, index: r.index, namespace: r.namespace,
                attributes: r.attributes, createdAt: time, matchState: state)
            _ = tree.insert(record, under: parentIndex)
        }
        var changed = false
        if r.parent == nil { changed = library.loadOnce("index.js", line: currentLine) || changed }
        if let namespaceFile { changed = library.loadOnce(namespaceFile, line: currentLine) || changed }
        if changed { rebuildAutomaton() }
    }

    /// Registers a keyed id again: the node keeps its state; its index and attributes are
    /// updated, and a new parent or name moves it (its subtree follows).
    private func reuse(_ index: Int32, _ r: Registration, _ parentIndex: Int32) -> Bool {
        tree[index].index = r.index
        if r.attributes != nil { tree[index].attributes = r.attributes }
        let record = tree[index]
        guard record.parent != parentIndex || record.name != r.name else { return true }
        if parentIndex != NodeTree.none, tree.isAncestor(index, of: parentIndex) {
            fail(.invalidOp, "cannot move node \(r.node) under \(r.parent.map(String.init(describing:)) ?? "nothing"): that is inside its own subtree")
            return false
        }
        if parentIndex == NodeTree.none, tree.root != NodeTree.none, tree.root != index {
            fail(.invalidOp, "cannot make node \(r.node) a root: the root \(tree[tree.root].id) is already registered")
            return false
        }
        tree.unlink(index)
        tree[index].name = r.name
        tree[index].symbol = symbols.symbol(for: r.name)
        tree.link(index, under: parentIndex)
        recomputeStates(from: index)
        return true
    }

    private func record(_ r: Recording) {
        guard let index = tree.lookup(r.node) else {
            return fail(.invalidOp, "cannot record '\(r.event)' on node \(r.node): it is not registered")
        }
        guard !r.event.isEmpty else {
            return fail(.invalidOp, "cannot record an event with an empty name on node \(r.node)")
        }
        let event = Event(name: r.event, properties: r.properties, time: r.time ?? configuration.clock.now())
        tree[index].state.apply(event)
        let state = tree[index].matchState
        guard automaton.hasTasks(state) else { return }
        let matching = automaton.tasks(in: state, event: r.event)
        guard !matching.isEmpty else { return }
        let node = binding.makeNode(index)
        defer { binding.endDispatch() }
        var path: String?
        for taskIndex in matching {
            let task = library.tasks[Int(taskIndex)]
            guard let function = task.function.object else { continue }
            let json: String?
            do throws(ScriptError) {
                json = runtime.string(try runtime.call(function, arguments: [node]))
            } catch {
                let what = error.isTimeout ? "timed out" : error.name == TaskLibrary.nonJSONErrorName ? "returned a value that is not JSON" : "threw"
                taskFailed(task, what, r, error.name == TaskLibrary.nonJSONErrorName ? ScriptError(name: "TypeError", message: error.message) : error)
                continue
            }
            guard let json else { continue }
            if path == nil { path = tree.path(of: index) }
            observer?.engine(self, didProduce: TaskResult(
                json: json, event: r.event, path: path!, node: r.node, time: event.time, task: task.reference, line: currentLine))
        }
    }

    private func deregister(_ d: Deregistration) {
        let targets = tree.nodes(withPrefix: d.node)
        guard !targets.isEmpty else {
            return fail(.invalidOp, "cannot deregister \(d.node): no node is registered with this id or an id that starts with it")
        }
        for target in targets { tree.removeSubtree(target) }
    }

    // MARK: Matching

    /// Recompiles the patterns after the tasks changed and recomputes every node's state.
    private func rebuildAutomaton() {
        automaton = MatchAutomaton(tasks: library.tasks, symbols: &symbols)
        if tree.root != NodeTree.none { recomputeStates(from: tree.root) }
    }

    private func recomputeStates(from index: Int32) {
        tree.walk(from: index, enter: { node, _ in
            let parent = self.tree[node].parent
            self.tree[node].matchState = parent == NodeTree.none
                ? self.automaton.rootState
                : self.automaton.transition(from: self.tree[parent].matchState, name: self.tree[node].symbol)
        }, exit: { _, _ in })
    }

    /// The patterns (with their tasks) that can fire on the node at `index`.
    func taskPatterns(at index: Int32) -> [(pattern: Pattern, task: TaskReference)] {
        automaton.patterns(in: tree[index].matchState).map { ($0.pattern, library.tasks[$0.taskIndex].reference) }
    }

    // MARK: Errors

    private func taskFailed(_ task: Task, _ what: String, _ r: Recording, _ error: ScriptError) {
        report(EngineError(.taskFailed, "\(task.reference) \(what) on '\(r.event)' at node \(r.node): \(error)", line: currentLine, script: error, task: task.reference))
    }

    private func fail(_ kind: EngineError.Kind, _ message: String) {
        report(EngineError(kind, message, line: currentLine))
    }

    private func report(_ error: EngineError) {
        observer?.engine(self, didReport: error)
    }
}
