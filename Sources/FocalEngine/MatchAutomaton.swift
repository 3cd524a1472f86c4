import FocalPatterns

/// Decides, for every node, which tasks can fire on it, without ever entering JavaScript.
///
/// Patterns compile to a nondeterministic automaton over node names: a pattern with
/// `k` node segments has positions `0…k`; position `i` moves to `i + 1` on a child whose
/// name fits segment `i`. Absolute patterns start at the root only; relative patterns
/// start afresh at every node, which makes them match path *suffixes*. A pattern fires
/// on a node where it reaches position `k`.
///
/// Each node stores one *state*: the set of positions active at it. States are
/// interned and their transitions cached, so registering a node costs one dictionary
/// lookup and recording an event costs one more to find the tasks for its name — the
/// lazily built deterministic automaton. A session gets a new automaton whenever its set
/// of tasks changes, and then recomputes every live node's state. Sessions whose tasks
/// have the same patterns share one automaton (see ``TaskScripts``).
///
/// Only names that appear in a pattern are interned; every other name is the same
/// symbol, ``otherName``, so a session with unique names does not grow the automaton.
final class MatchAutomaton {
    typealias State = Int32

    private struct CompiledPattern {
        let taskIndex: Int32
        let pattern: TaskPattern
        let segments: [Int32]  // node-name symbols; `wildcard` for `*`
        let firstPosition: Int32
    }

    private struct StateInfo {
        let positions: [Int32]
        var transitions: [Int32: State] = [:]
        /// Task indices (ascending, unique) for each exact event name.
        let byEvent: [String: [Int32]]
        /// Task indices (ascending) of patterns whose event is `*`.
        let anyEvent: [Int32]
        /// The patterns that fire at this state (for snapshots).
        let finalPatterns: [Int32]
    }

    private static let wildcard: Int32 = -1
    /// The symbol of every name that no pattern mentions.
    static let otherName: Int32 = -2
    private var symbols: [String: Int32] = [:]

    private var patterns: [CompiledPattern] = []
    private var positionPattern: [Int32] = []  // position → pattern
    private var relativeStarts: [Int32] = []  // position 0 of relative patterns with k ≥ 1
    private var everywhere: [Int32] = []  // relative patterns with k = 0
    private var states: [StateInfo] = []
    private var stateIDs: [[Int32]: State] = [:]
    private(set) var rootState: State = 0

    /// Compiles `patterns`: for each task in load order, its patterns.
    init(patterns taskPatterns: [[TaskPattern]]) {
        for (taskIndex, taskPatterns) in taskPatterns.enumerated() {
            for pattern in taskPatterns {
                let first = Int32(positionPattern.count)
                let segments = pattern.path.segments.map { name -> Int32 in
                    if name == PathPattern.wildcard { return Self.wildcard }
                    if let symbol = symbols[name] { return symbol }
                    let symbol = Int32(symbols.count)
                    symbols[name] = symbol
                    return symbol
                }
                let index = Int32(patterns.count)
                patterns.append(CompiledPattern(taskIndex: Int32(taskIndex), pattern: pattern, segments: segments, firstPosition: first))
                positionPattern.append(contentsOf: repeatElement(index, count: segments.count + 1))
                if !pattern.path.isAbsolute {
                    if segments.isEmpty { everywhere.append(index) } else { relativeStarts.append(first) }
                }
            }
        }
        let rootPositions = patterns.filter(\.pattern.path.isAbsolute).map(\.firstPosition)
        rootState = intern(rootPositions)
    }

    /// How many node names are interned: the names the patterns mention, never more.
    var symbolCount: Int { symbols.count }

    /// How many states have been built, which the node names a session registers cannot raise
    /// past what the patterns allow.
    var stateCount: Int { states.count }

    /// The symbol of a node name: its own when a pattern mentions it, ``otherName`` otherwise.
    func symbol(for name: String) -> Int32 {
        symbols[name] ?? Self.otherName
    }

    /// The state of a child named `name` of a node in `state`.
    func transition(from state: State, name: String) -> State {
        transition(from: state, symbol: symbol(for: name))
    }

    /// The state of a child whose name has `symbol` of a node in `state`.
    func transition(from state: State, symbol name: Int32) -> State {
        if let next = states[Int(state)].transitions[name] { return next }
        var next: [Int32] = []
        func advance(_ position: Int32) {
            let compiled = patterns[Int(positionPattern[Int(position)])]
            let i = Int(position - compiled.firstPosition)
            guard i < compiled.segments.count else { return }
            let segment = compiled.segments[i]
            if segment == Self.wildcard || segment == name { next.append(position + 1) }
        }
        for position in states[Int(state)].positions { advance(position) }
        for position in relativeStarts { advance(position) }
        next.sort()
        let id = intern(next)
        states[Int(state)].transitions[name] = id
        return id
    }

    /// Whether any task can fire on a node in `state`, for any event.
    func hasTasks(_ state: State) -> Bool {
        !states[Int(state)].finalPatterns.isEmpty
    }

    /// The indices (into the task list, ascending) of the tasks that fire for `event` in `state`.
    func tasks(in state: State, event: String) -> [Int32] {
        // Fields are read in place: copying the whole `StateInfo` would retain and
        // release each of its arrays and dictionaries on every recorded event.
        let exact = states[Int(state)].byEvent[event] ?? []
        let anyEvent = states[Int(state)].anyEvent
        if anyEvent.isEmpty { return exact }
        if exact.isEmpty { return anyEvent }
        return Array(Set(exact).union(anyEvent)).sorted()
    }

    /// The patterns that can fire in `state`, with the index of their task.
    func patterns(in state: State) -> [(taskIndex: Int, pattern: TaskPattern)] {
        states[Int(state)].finalPatterns.map { (Int(patterns[Int($0)].taskIndex), patterns[Int($0)].pattern) }
    }

    private func intern(_ positions: [Int32]) -> State {
        if let id = stateIDs[positions] { return id }
        var finals: [Int32] = everywhere
        for position in positions {
            let index = positionPattern[Int(position)]
            let compiled = patterns[Int(index)]
            if Int(position - compiled.firstPosition) == compiled.segments.count { finals.append(index) }
        }
        finals.sort()
        var byEvent: [String: [Int32]] = [:]
        var anyEvent: [Int32] = []
        for index in finals {
            let compiled = patterns[Int(index)]
            if compiled.pattern.event == PathPattern.wildcard {
                if anyEvent.last != compiled.taskIndex { anyEvent.append(compiled.taskIndex) }
            } else {
                byEvent[compiled.pattern.event, default: []].append(compiled.taskIndex)
            }
        }
        for key in byEvent.keys { byEvent[key] = Array(Set(byEvent[key]!)).sorted() }
        anyEvent = Array(Set(anyEvent)).sorted()
        let id = State(states.count)
        states.append(StateInfo(positions: positions, byEvent: byEvent, anyEvent: anyEvent, finalPatterns: finals))
        stateIDs[positions] = id
        return id
    }
}
