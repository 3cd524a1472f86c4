import FocalCore
import FocalPatterns

/// Decides, for every node, which tasks can fire on it, without ever entering JavaScript.
///
/// The node-path matching is FocalPatterns' ``PatternAutomaton`` — the one matcher, which delivery rules and
/// scenario steps use too — compiled from the path parts of every task's patterns. Each node stores one *state* of
/// it, so registering a node costs one cached transition. On top of it, this type keeps one table per state: the
/// tasks to run for each event name and for every event, so recording an event costs one more lookup. The tables
/// are built when the automaton first reaches a state.
///
/// A session gets a new automaton whenever its set of tasks changes, and then recomputes every live node's state.
/// Sessions whose tasks have the same patterns share one automaton (see ``TaskScripts``).
///
/// Confined to its engine's thread: the stored properties that every op touches opt out of
/// the runtime's exclusivity checks (`@exclusivity(unchecked)`), and each member that touches them holds the
/// automaton's `confinement` (debug builds: a second thread inside fails an assertion).
final class MatchAutomaton {
    typealias State = PatternAutomaton.State

    private struct EventTable {
        /// Task indices (ascending, unique) for each exact event name, where the state's patterns name at most
        /// ``fewEvents`` of them (almost every state: patterns name one or two events for a node), searched in order:
        /// comparing a short name costs less than hashing it, which every recorded event did.
        let few: [(event: String, tasks: [Int32])]
        /// The same for a state whose patterns name more events, by name; empty where `few` holds them.
        let byEvent: [String: [Int32]]
        /// Task indices (ascending) of patterns whose event is `*`.
        let anyEvent: [Int32]
        /// Whether some pattern matches at this state, for any event.
        let hasTasks: Bool

        /// The tasks of the patterns that name `event` exactly.
        @inline(__always)
        func exactTasks(_ event: String) -> [Int32] {
            guard byEvent.isEmpty else { return byEvent[event] ?? [] }
            for entry in few where entry.event.hasSameText(as: event) { return entry.tasks }
            return []
        }
    }

    private let core: PatternAutomaton
    /// For each of the core's patterns, its task index and task pattern.
    private let taskPatterns: [(taskIndex: Int32, pattern: TaskPattern)]
    @exclusivity(unchecked) private var tables: [EventTable] = []
    /// Which thread is inside the automaton (``FocalCore/ThreadConfinement``): checked in debug builds only.
    private let confinement = ThreadConfinement()

    /// Compiles `patterns`: for each task in load order, its patterns.
    init(patterns: [[TaskPattern]]) {
        taskPatterns = patterns.enumerated().flatMap { task in task.element.map { (taskIndex: Int32(task.offset), pattern: $0) } }
        core = PatternAutomaton(taskPatterns.map(\.pattern.path))
        extendTables()
    }

    var rootState: State { core.rootState }

    /// How many node names are interned: the names the patterns mention, never more.
    var symbolCount: Int { core.symbolCount }

    /// How many states have been built, which the node names a session registers cannot raise
    /// past what the patterns allow.
    var stateCount: Int { core.stateCount }

    /// The state of a child named `name` of a node in `state`.
    @inline(__always) func transition(from state: State, name: String) -> State {
        confinement.enter()
        defer { confinement.exit() }
        // Rows come one after another under one table with one name: the last transition is tried first, which
        // spares hashing the name and then its symbol.
        if lastTransition.from == state, lastTransition.name.hasSameText(as: name) {
            return lastTransition.to
        }
        let next = core.transition(from: state, name: name)
        if Int(next) >= tables.count { extendTables() }
        lastTransition = (state, name, next)
        return next
    }

    /// The last transition taken.
    @exclusivity(unchecked) private var lastTransition: (from: State, name: String, to: State) = (-1, "", -1)

    /// Whether any task can fire on a node in `state`, for any event.
    @inline(__always) func hasTasks(_ state: State) -> Bool {
        confinement.withEntered { tables[Int(state)].hasTasks }
    }

    /// The indices (into the task list, ascending) of the tasks that fire for `event` in `state`.
    func tasks(in state: State, event: String) -> [Int32] {
        confinement.enter()
        defer { confinement.exit() }
        // Fields are read in place: copying the whole table would retain and release
        // its array and dictionary on every recorded event.
        let exact = tables[Int(state)].exactTasks(event)
        let anyEvent = tables[Int(state)].anyEvent
        if anyEvent.isEmpty { return exact }
        if exact.isEmpty { return anyEvent }
        return Array(Set(exact).union(anyEvent)).sorted()
    }

    /// The indices (ascending) of the tasks with a pattern that names `event` itself in
    /// `state`: `*` as the event does not count (see ``sessionEndedEvent``).
    func tasks(in state: State, naming event: String) -> [Int32] {
        confinement.withEntered { tables[Int(state)].exactTasks(event) }
    }

    /// The patterns that can fire in `state`, with the index of their task.
    func patterns(in state: State) -> [(taskIndex: Int, pattern: TaskPattern)] {
        core.finalPatterns(in: state).map { (Int(taskPatterns[Int($0)].taskIndex), taskPatterns[Int($0)].pattern) }
    }

    /// Builds the tables of the states the core has built since the last call.
    private func extendTables() {
        confinement.enter()
        defer { confinement.exit() }
        while tables.count < core.stateCount {
            let finals = core.finalPatterns(in: State(tables.count))
            var byEvent: [String: Set<Int32>] = [:]
            var anyEvent: Set<Int32> = []
            for index in finals {
                let (taskIndex, pattern) = taskPatterns[Int(index)]
                if pattern.event == PathPattern.wildcard {
                    anyEvent.insert(taskIndex)
                } else {
                    byEvent[pattern.event, default: []].insert(taskIndex)
                }
            }
            let sorted = byEvent.mapValues { $0.sorted() }
            let isFew = sorted.count <= Self.fewEvents
            tables.append(
                EventTable(
                    few: isFew ? sorted.map { ($0.key, $0.value) } : [], byEvent: isFew ? [:] : sorted,
                    anyEvent: anyEvent.sorted(), hasTasks: !finals.isEmpty))
        }
    }

    /// The most event names a state's table searches in order rather than through its dictionary.
    private static let fewEvents = 4
}
