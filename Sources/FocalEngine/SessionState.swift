import FocalCore
import FocalJSON
import FocalOpLog
import FocalPatterns
import FocalRuntime

/// Everything one session owns: its node tree, the tasks it loaded (with their
/// top-level variables), and the automaton that says which tasks can fire where.
///
/// A session applies ops exactly as if its ops were replayed alone; it shares only the
/// engine's virtual machine, compiled scripts and automata with other sessions.
///
/// Confined to its engine's thread: the stored properties that every op touches opt out of
/// the runtime's exclusivity checks (`@exclusivity(unchecked)`).
final class SessionState {
    /// `nil` for the default session.
    let id: String?
    let tree: NodeTree
    let library: TaskLibrary
    @exclusivity(unchecked) private(set) var automaton: MatchAutomaton
    /// The engine owns its sessions and releases them before it goes, so the reference
    /// cannot dangle; `unowned(unsafe)` spares the reference-count check that a safe
    /// `unowned` read costs on every op.
    private unowned(unsafe) let engine: Engine
    /// The op-log line being applied, for error messages.
    @exclusivity(unchecked) private var currentLine: Int?
    /// The latest `time` an op of the session carried: the time of its end event.
    @exclusivity(unchecked) private var latestTime: Int64?
    /// The focus path of the node a result was last produced on, with that node's parent (arena index and
    /// generation) and name: results come in runs on siblings (the rows of one table), which share their path, so a
    /// run works it out once. Forgotten when a node moves or is renamed, which can change the path of its subtree.
    @exclusivity(unchecked) private var lastResultPath: (parent: Int32, generation: UInt32, name: String, path: String)?
    /// Where matched patterns are counted, if anywhere (the engine's, read once: every recorded event asks).
    private let coverage: PatternCoverage?
    /// ``EngineConfiguration/keepsNoResults``, read once.
    private let keepsNoResults: Bool
    /// Where the task wrapper hands short results (the engine's, read once: every result with one asks).
    private let handedText: SharedText
    /// `Date` and `Math.random` of the engine's tasks (read once), and where this session's `Math.random()` is in its
    /// sequence (seeded from the session's id): each call into JavaScript for this session starts there.
    private let builtins: ReplayableBuiltins
    @exclusivity(unchecked) private var randomState: RandomState
    /// How many events the session has recorded: the serial of the latest (see ``Event/serial``).
    @exclusivity(unchecked) private var eventCount: UInt64 = 0
    /// The session's place in the engine's sessions by slot (see ``Engine/apply(_:session:line:sessionSlot:)``); -1 for none.
    @exclusivity(unchecked) var slot = -1
    /// What the session holds, and its budget (``EngineConfiguration/maxSessionBytes``).
    @exclusivity(unchecked) private(set) var bytes: SessionBytes

    init(id: String?, engine: Engine) {
        self.id = id
        self.engine = engine
        tree = NodeTree(generations: engine.generations)
        library = TaskLibrary(scripts: engine.scripts)
        automaton = engine.scripts.automaton(for: [])
        coverage = engine.scripts.coverage
        keepsNoResults = engine.configuration.keepsNoResults
        handedText = engine.scripts.handedText
        builtins = engine.scripts.builtins
        randomState = RandomState(seed: id)
        bytes = SessionBytes(limit: engine.configuration.maxSessionBytes)
        library.report = { [unowned self] error in
            var error = error
            error.line = error.line ?? self.currentLine
            self.report(error)
        }
    }

    private var configuration: EngineConfiguration { engine.configuration }
    private var runtime: JSRuntime { engine.runtime }

    /// Applies one op of this session. Inlined into the engine's `apply`, which saves a copy of the op (see there).
    @inline(__always)
    func apply(_ op: Op, line: Int?) {
        // A way into the session (and its engine's runtime): the parts it reaches check the thread inside.
        runtime.confinement.enter()
        defer { runtime.confinement.exit() }
        currentLine = line
        defer { currentLine = nil }
        switch op {
        case .register(let registration): register(registration)
        case .record(let recording): record(recording)
        case .deregister(let deregistration): deregister(deregistration)
        case .snapshot(let format): takeSnapshot(format)
        case .end: break  // the engine releases the session
        }
    }

    // MARK: Ops

    /// Records the ``sessionEndedEvent`` on the root, if the session has one, at `time` (the `end` op's), else at the
    /// latest time an op of the session carried.
    func recordEnd(reason: SessionEndReason, time: Int64?, line: Int?) {
        runtime.confinement.enter()
        defer { runtime.confinement.exit() }
        guard tree.root != NodeTree.none else { return }
        currentLine = line
        defer { currentLine = nil }
        let end = Recording(
            node: tree[tree.root].id, event: sessionEndedEvent, properties: reason.properties,
            time: time ?? latestTime ?? configuration.clock.now())
        record(end, namedOnly: true)
    }

    private func register(_ r: Registration) {
        if let time = r.time, time > latestTime ?? .min { latestTime = time }
        if configuration.debug {
            enterBuiltins(at: r.time ?? configuration.clock.now())
            let changed = library.reloadIfChanged(line: currentLine)
            leaveBuiltins()
            if !changed.isEmpty {
                rebuildAutomaton()
                let files = changed.map { "'\($0)'" }.joined(separator: ", ")
                let whose = id.map { "session '\($0)'" } ?? "the default session"
                configuration.logger.info(
                    "reloaded the task files of \(whose) (changed: \(files)); its task state (top-level variables) was reset",
                    metadata: id.map { ["focal.session": .string($0)] })
            }
        }
        // A name without the byte of "/" holds no "/" character, and the bytes are checked much faster (in place:
        // through the UTF-8 view's iterator a byte cost ~40 instructions).
        let hasSlashByte = r.name.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "/")) } ?? true
        guard !r.name.isEmpty, !hasSlashByte || !r.name.contains("/") else {
            return fail(.invalidOp, "invalid name '\(r.name)' for node \(r.node): a name must be non-empty and must not contain '/'")
        }
        var namespaceFile: String?
        if let namespace = r.namespace {
            coverage?.noteNamespace(namespace)
            switch engine.scripts.file(forNamespace: namespace) {
            case .success(let file): namespaceFile = file
            case .failure(let error): return fail(error.kind, "node \(r.node): \(error.message)")
            }
        }
        // The payload's closure captures what it reads, not `r`: capturing `r` copied the whole registration. (One
        // `let` each: taken as a tuple, they were destroyed through the runtime's generic tuple destroy.)
        let name = r.name
        let index = r.index
        let namespace = r.namespace
        let attributes = r.attributes
        let time = r.time
        let nodeBytes = NodeTree.nodeBytes(id: r.node, name: name, namespace: namespace, attributes: attributes)
        guard nodeBytes <= bytes.room else { return failOverBudget("cannot register node \(r.node) ('\(name)')", adding: nodeBytes) }
        let outcome = tree.register(r.node, name: name, parent: r.parent) { parent in
            NodePayload(
                index: index,
                matchState: parent == NodeTree.none
                    ? automaton.rootState : automaton.transition(from: tree[parent].payload.matchState, name: name),
                details: .of(namespace: namespace, attributes: attributes), createdAt: time ?? configuration.clock.now())
        }
        switch outcome {
        case .inserted:
            bytes.held += nodeBytes
        case .registeredAgain(let index), .moved(let index, _):
            // A keyed id registered again keeps its node and state; its index and attributes are updated, and a
            // move (its subtree follows) changes which tasks can fire on the moved nodes.
            tree[index].payload.index = r.index
            if r.attributes != nil {
                bytes.held -= NodeDetails.heldBytes(namespace: tree[index].payload.namespace, attributes: tree[index].payload.attributes)
                tree[index].payload.attributes = r.attributes
                bytes.held += NodeDetails.heldBytes(namespace: tree[index].payload.namespace, attributes: tree[index].payload.attributes)
            }
            if case .moved(_, let formerName) = outcome {
                bytes.held += name.heapByteCount - formerName.heapByteCount
                lastResultPath = nil
                recomputeStates(from: index)
            }
        case .refused(let refusal):
            return fail(.invalidOp, refusalMessage(refusal, r))
        }
        // Matched, not compared with `nil`: `==` took `Optional`'s `Equatable` path and its generic tuple destroy.
        var isRoot = false
        if case .none = r.parent { isRoot = true }
        // Loading evaluates task files: several calls, so not inside a batch's entry (see `record`).
        if runtime.isBatching, isRoot && !library.hasRequested("index.js") || namespaceFile.map(library.hasRequested) == false {
            return later { [self] in loadTasks(isRoot: isRoot, namespaceFile: namespaceFile, time: time) }
        }
        loadTasks(isRoot: isRoot, namespaceFile: namespaceFile, time: time)
    }

    /// Loads the task files a registration at `time` (the engine's clock when `nil`) asks for: `index.js` for the
    /// root, and a namespace's file.
    private func loadTasks(isRoot: Bool, namespaceFile: String?, time: Int64?) {
        guard isRoot || namespaceFile != nil else { return }
        enterBuiltins(at: time ?? configuration.clock.now())
        defer { leaveBuiltins() }
        var changed = false
        if isRoot {
            changed = library.loadOnce("index.js", line: currentLine) || changed
            if !library.hasLoaded("index.js"), engine.scripts.firstWarning("index.js") {
                warn("no index.js in the tasks directory: only namespace files can add tasks (said once)")
            }
        }
        if let namespaceFile { changed = library.loadOnce(namespaceFile, line: currentLine) || changed }
        if changed { rebuildAutomaton() }
    }

    /// Runs `work`, the rest of the current op, right after the batch's step, outside its entry
    /// (`JSRuntime.afterEntry`), as part of the same op-log line.
    private func later(_ work: @escaping () -> Void) {
        let line = currentLine
        runtime.afterEntry { [self] in
            currentLine = line
            defer { currentLine = nil }
            work()
        }
    }

    /// Why `r` is refused, in the words of the op log's rules.
    private func refusalMessage(_ refusal: FocusTreeRegistration.Refusal, _ r: Registration) -> String {
        switch refusal {
        case .parentNotRegistered:
            "cannot register node \(r.node) ('\(r.name)'): its parent \(r.parent.map(String.init(describing:)) ?? "") is not registered"
        case .ownedIDRegistered:
            "node \(r.node) ('\(r.name)') is already registered; an owned id can be registered only once"
        case .secondRoot(let root):
            "cannot register node \(r.node) ('\(r.name)') as a root: the root \(tree[root].id) is already registered"
        case .moveIntoOwnSubtree:
            "cannot move node \(r.node) under \(r.parent.map(String.init(describing:)) ?? "nothing"): that is inside its own subtree"
        case .moveToSecondRoot(_, let root):
            "cannot make node \(r.node) a root: the root \(tree[root].id) is already registered"
        case .tooDeep:
            "cannot register node \(r.node) ('\(r.name)') under \(r.parent.map(String.init(describing:)) ?? "nothing"): "
                + "the tree would be deeper than \(OpLogLimits.treeDepth) levels, the most a session's tree may have"
        }
    }

    /// A `snapshot` op: the tree goes to the observer, or the op is refused when the observer takes no snapshots
    /// (``EngineObserver/takesSnapshots``), before anything is rendered.
    private func takeSnapshot(_ format: SnapshotFormat) {
        guard let observer = engine.observer else { return }
        guard observer.takesSnapshots else {
            return fail(
                .refusedOp,
                "a snapshot op is refused here: this session's snapshot is read on request, not written by its ops "
                    + "(GET /v1/sessions/{id}/snapshot with a read key; EngineSession.snapshot(format:) in Swift)")
        }
        // Never stopped, so never `nil`.
        observer.engine(engine, didTakeSnapshot: snapshot(format: format) ?? "", format: format, session: id.flatMap(SessionID.init(held:)))
    }

    /// Records `r`; with `namedOnly`, only tasks whose pattern names the event fire (not `*`).
    private func record(_ r: Recording, namedOnly: Bool = false) {
        if let time = r.time, time > latestTime ?? .min { latestTime = time }
        guard let index = tree.lookup(r.node) else {
            return fail(.invalidOp, "cannot record '\(r.event)' on node \(r.node): it is not registered")
        }
        guard !r.event.isEmpty else {
            return fail(.invalidOp, "cannot record an event with an empty name on node \(r.node)")
        }
        eventCount += 1
        let time = r.time ?? configuration.clock.now()
        let event = Event(name: r.event, lazyProperties: r.lazyProperties, time: time, serial: eventCount)
        // The event moves into the node's history: used after this line, it would be copied there.
        // A session's end event is never refused: its tasks must see the end.
        switch tree[index].payload.state.apply(consume event, updateMembers: r.updateMembers, bytes: &bytes, budgeted: !namedOnly) {
        case nil: break
        case .valueLimit?:
            return fail(
                .invalidOp,
                "cannot record '\(r.event)' on node \(r.node): the node holds \(NodeState.valueLimit) values, the limit, and this one has a new key path"
            )
        case .sessionBytes?:
            return failOverBudget("cannot record '\(r.event)' on node \(r.node)", adding: nil)
        }
        let state = tree[index].payload.matchState
        if let coverage { noteCoverage(coverage, at: index, event: r.event, namedOnly: namedOnly) }
        guard automaton.hasTasks(state) else { return }
        let matching = namedOnly ? automaton.tasks(in: state, naming: r.event) : automaton.tasks(in: state, event: r.event)
        guard !matching.isEmpty else { return }
        // Inside a batch's one VM entry, no call may follow one that was stopped (see
        // `JSRuntime.withOneEntry`): several tasks run outside it, right after the op's step.
        guard matching.count == 1 || !runtime.isBatching else {
            return later { [self] in dispatch(matching, r, at: index, time: time) }
        }
        dispatch(matching, r, at: index, time: time)
    }

    /// Calls the tasks `matching` (in order) with the node at `index`, for the event of `r` at `time`.
    private func dispatch(_ matching: [Int32], _ r: Recording, at index: Int32, time: Int64) {
        // Inside the op's `apply`, or right after its step inside the runtime's batch (`later`).
        assert(runtime.confinement.isHeldByCurrentThread, "a session dispatched on a thread outside its engine")
        enterBuiltins(at: time)
        defer { leaveBuiltins() }
        let binding = engine.binding
        binding.tree = tree
        var arguments = binding.beginDispatch(index)
        defer { binding.endDispatch() }
        var path: String?
        for taskIndex in matching {
            let task = library.tasks[Int(taskIndex)]
            guard let function = task.function.object else { continue }
            let returned: ScriptValue
            do throws(ScriptError) {
                returned = try withUnsafeBytes(of: &arguments) { bytes throws(ScriptError) in
                    try runtime.call(function, argumentBuffer: bytes.bindMemory(to: ScriptValue?.self))
                }
            } catch {
                let notJSON = error.name == TaskScripts.nonJSONErrorName
                let what =
                    error.isTimeout
                    ? "timed out" : error.isHeapLimit ? "crossed the heap limit" : notJSON ? "returned a value that is not JSON" : "threw"
                taskFailed(task, what, r, at: index, notJSON ? ScriptError(name: "TypeError", message: error.message) : error)
                continue
            }
            if let note = engine.scripts.pendingNote {
                engine.scripts.pendingNote = nil
                noteResult(note, of: task)
            }
            // The wrapper returns `undefined` for no result, or the results' JSON texts, one per line (`results([…])`
            // gives several): handed in shared memory when it returns `null` (both compared without a call), as a
            // string otherwise.
            guard returned != runtime.undefined,
                let texts = returned == runtime.null ? handedText.text : runtime.string(ofKnownString: returned),
                !texts.isEmpty
            else {
                if keepsNoResults { bytes.held += tree[index].payload.state.keep(.noResult, of: task.reference) }
                continue
            }
            if path == nil { path = resultPath(of: index) }
            // (Searched in the text's bytes: `utf8.contains` steps through the view one index at a time.)
            if texts.utf8.withContiguousStorageIfAvailable({ $0.contains(UInt8(ascii: "\n")) }) ?? texts.utf8.contains(UInt8(ascii: "\n")) {
                for json in texts.split(separator: "\n") { produce(String(json), task, r, at: index, path: path!, time: time) }
            } else {
                produce(texts, task, r, at: index, path: path!, time: time)
            }
        }
    }

    /// Evaluates `files` with no op behind them (``Engine/loadAllTaskFiles()``): their top level sees `Date.now()`
    /// as 0, the Unix epoch, and draws `Math.random()` from this session's sequence.
    func loadAll(_ files: [String]) {
        enterBuiltins(at: 0)
        defer { leaveBuiltins() }
        library.loadAll(files)
    }

    /// Sets `Date` to `time` and `Math.random` to where this session's sequence is, for the calls into JavaScript
    /// that follow: the engine's sessions share the built-ins, never their time or sequence.
    @inline(__always)
    private func enterBuiltins(at time: Int64) {
        builtins.time = time
        builtins.randomState = randomState
    }

    /// Keeps where this session's `Math.random()` sequence got to (after ``enterBuiltins(at:)`` and the calls).
    @inline(__always)
    private func leaveBuiltins() { randomState = builtins.randomState }

    /// The focus path of the node at `index`, shared with the last sibling a result was produced on.
    private func resultPath(of index: Int32) -> String {
        let parent = tree[index].parent
        guard parent != NodeTree.none else { return tree.path(of: index) }
        if let last = lastResultPath, last.parent == parent, last.generation == tree[parent].generation, last.name == tree[index].name {
            return last.path
        }
        let path = tree.path(of: index)
        lastResultPath = (parent, tree[parent].generation, tree[index].name, path)
        return path
    }

    /// Reports a result and keeps it with its event in the history of the node at `index`.
    private func produce(_ json: String, _ task: Task, _ r: Recording, at index: Int32, path: String, time: Int64) {
        bytes.held += tree[index].payload.state.keepResult(json, of: task.reference)
        engine.observer?.engine(
            engine,
            didProduce: TaskResult(
                record: ResultRecord(resultJSON: json, event: r.event, path: path, time: time, session: id),
                node: r.node, task: task.reference, line: currentLine))
    }

    private func deregister(_ d: Deregistration) {
        guard tree.removeSubtrees(withPrefix: d.node, each: { bytes.held -= tree.heldBytes(of: $0) }) > 0 else {
            return fail(.invalidOp, "cannot deregister \(d.node): no node is registered with this id or an id that starts with it")
        }
    }

    // MARK: Matching

    /// Takes the automaton for the session's current tasks and recomputes every node's state.
    func rebuildAutomaton() {
        automaton = engine.scripts.automaton(for: library.patterns)
        if tree.root != NodeTree.none { recomputeStates(from: tree.root) }
    }

    private func recomputeStates(from index: Int32) {
        tree.walk(
            from: index,
            enter: { node, _ in
                let parent = self.tree[node].parent
                self.tree[node].payload.matchState =
                    parent == NodeTree.none
                    ? self.automaton.rootState
                    : self.automaton.transition(from: self.tree[parent].payload.matchState, name: self.tree[node].name)
            })
    }

    /// The patterns (with their tasks) that can fire on the node at `index`.
    func taskPatterns(at index: Int32) -> [(pattern: TaskPattern, task: TaskReference)] {
        automaton.patterns(in: tree[index].payload.matchState).map { ($0.pattern, library.tasks[$0.taskIndex].reference) }
    }

    /// Notes the patterns that `event` at the node `index` matches (only with a ``PatternCoverage``).
    private func noteCoverage(_ coverage: PatternCoverage, at index: Int32, event: String, namedOnly: Bool) {
        coverage.noteSeen(path: tree.path(of: index), event: event)
        coverage.noteMatched(
            taskPatterns(at: index).filter { namedOnly ? $0.pattern.event == event : $0.pattern.matches(event: event) }.map {
                PatternCoverage.PatternUse(pattern: $0.pattern.description, task: $0.task)
            })
    }

    // MARK: Errors

    private func taskFailed(_ task: Task, _ what: String, _ r: Recording, at index: Int32, _ error: ScriptError) {
        let error = engine.scripts.modules.locate(error)
        let message = TaskOutcome.kept("\(error)")
        bytes.held += tree[index].payload.state.keep(error.isTimeout ? .timedOut(message) : .threw(message), of: task.reference)
        report(
            EngineError(
                .taskFailed, "\(task.reference) \(what) on '\(r.event)' at \(describeNode(index)): \(error)", line: currentLine,
                script: error,
                task: task.reference))
    }

    /// `node /a/b (id 6)`, or `the root node (id 1)`.
    private func describeNode(_ index: Int32) -> String {
        let path = tree.path(of: index)
        return path.isEmpty ? "the root node (id \(tree[index].id))" : "node \(path) (id \(tree[index].id))"
    }

    /// Warns, once per task and kind of value, about a result that was written but is
    /// probably not what the task meant.
    private func noteResult(_ note: TaskScripts.ResultNote, of task: Task) {
        guard engine.scripts.firstWarning("\(task.reference)\u{0}\(note.what)") else { return }
        let advice =
            switch note.what {
            case "a Map", "a Set": "Maps and Sets are not JSON: return Object.fromEntries(map) or [...set]"
            case "null", "false": "return undefined for no result (`x && {…}` returns x when x is falsy)"
            case "NaN", "Infinity", "-Infinity": "JSON has no \(note.what)"
            default: "only own enumerable properties of \(note.what) are written"
            }
        warn("\(task.reference) returned \(note.what), written as \(note.written): \(advice) (said once per task)")
    }

    /// Logs a warning of this session (see ``EngineConfiguration/logger``).
    func warn(_ message: String) {
        engine.configuration.logger.warning("\(message)", metadata: id.map { ["focal.session": .string($0)] })
    }

    /// Reports an op refused because the session would hold more than its memory budget: `what` it would have done,
    /// and the bytes it would have added when known.
    private func failOverBudget(_ what: String, adding: Int?) {
        let adding = adding.map { ", the op \($0) more" } ?? ""
        fail(
            .overMemoryBudget,
            "\(what): the session would pass its memory budget of \(bytes.limit) bytes (it holds \(bytes.held)\(adding)); "
                + "deregister nodes or end the session, or raise the limit: --max-session-bytes")
    }

    private func fail(_ kind: EngineError.Kind, _ message: String) {
        report(EngineError(kind, message, line: currentLine))
    }

    func report(_ error: EngineError) {
        var error = error
        error.session = id.flatMap(SessionID.init(held:))
        engine.observer?.engine(engine, didReport: error)
    }
}
