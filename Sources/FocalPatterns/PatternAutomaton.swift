import FocalCore

/// The one matcher of focus-path patterns: a lazily built deterministic automaton over node names.
///
/// Patterns compile to a nondeterministic automaton: a pattern with `k` node segments has positions `0…k`; position
/// `i` moves to `i + 1` on a node whose name fits segment `i`. Absolute patterns start at the root only; relative
/// patterns start afresh at every node, which makes them match path *suffixes*. A pattern matches a node where it
/// reaches position `k`: ``finalPatterns(in:)``.
///
/// A path is run from ``rootState`` with one ``transition(from:symbol:)`` per node name. States (sets of active
/// positions) are interned and their transitions cached, so a transition already taken costs one dictionary lookup;
/// a new one costs one step per active position, once. Running a path therefore takes time linear in its length, and
/// no pattern makes it slow.
///
/// Only names that appear in a pattern are interned; every other name is the same symbol, ``otherName``, so paths of
/// unique names do not grow the automaton. ``stateCount`` only grows: a client that keeps a table per state (the
/// engine keeps the tasks to run for each event) extends it when a transition returns a state it has not seen.
///
/// The automaton caches as it runs, so it is not `Sendable`: one thread uses it at a time (the engine's session
/// worker, or a lock around it — see ``PatternSet``), and its caches opt out of the runtime's exclusivity checks
/// (`@exclusivity(unchecked)`), which cost time on every transition. Debug builds check the one thread instead:
/// each member that reads or builds states holds the automaton's `confinement` (`ThreadConfinement`, FocalCore), which
/// asserts that no other thread is inside; release builds compile the check to nothing.
public final class PatternAutomaton {
    /// A state: the index of an interned set of positions.
    public typealias State = Int32

    /// The symbol of every name that no pattern mentions.
    public static let otherName: Int32 = -2
    @usableFromInline static let wildcard: Int32 = -1

    @usableFromInline struct StateInfo {
        @usableFromInline let positions: [Int32]
        @usableFromInline var transitions: [Int32: State] = [:]
        @usableFromInline let finalPatterns: [Int32]
    }

    @exclusivity(unchecked) @usableFromInline var symbols: [String: Int32] = [:]
    @exclusivity(unchecked) @usableFromInline var states: [StateInfo] = []
    @exclusivity(unchecked) private var stateIDs: [[Int32]: State] = [:]
    /// Which thread is inside the automaton, in debug builds: every member that touches `states` enters it.
    /// (`symbols` is written only by `init`.)
    @usableFromInline let confinement = ThreadConfinement()

    /// The patterns, in the order given.
    public let patterns: [PathPattern]
    private var segments: [[Int32]] = []  // per pattern: node-name symbols; `wildcard` for `*`
    private var firstPosition: [Int32] = []  // per pattern
    private var positionPattern: [Int32] = []  // position → pattern
    private var relativeStarts: [Int32] = []  // position 0 of relative patterns with k ≥ 1
    private var everywhere: [Int32] = []  // relative patterns with k = 0
    /// The state of the root node (the empty path).
    public private(set) var rootState: State = 0

    /// Compiles `patterns`; ``finalPatterns(in:)`` answers indices into this array.
    public init(_ patterns: [PathPattern]) {
        self.patterns = patterns
        for (index, pattern) in patterns.enumerated() {
            let symbols = pattern.segments.map { name -> Int32 in
                if name == PathPattern.wildcard { return Self.wildcard }
                if let symbol = self.symbols[name] { return symbol }
                let symbol = Int32(self.symbols.count)
                self.symbols[name] = symbol
                return symbol
            }
            let first = Int32(positionPattern.count)
            segments.append(symbols)
            firstPosition.append(first)
            positionPattern.append(contentsOf: repeatElement(Int32(index), count: symbols.count + 1))
            if !pattern.isAbsolute {
                if symbols.isEmpty { everywhere.append(Int32(index)) } else { relativeStarts.append(first) }
            }
        }
        let rootPositions = patterns.indices.filter { patterns[$0].isAbsolute }.map { firstPosition[$0] }
        rootState = intern(rootPositions)
    }

    /// How many states have been built so far; every state is below this number.
    public var stateCount: Int {
        confinement.enter()
        defer { confinement.exit() }
        return states.count
    }

    /// How many node names have symbols of their own: the names the patterns mention, never more.
    public var symbolCount: Int { symbols.count }

    /// The symbol of a node name: its own when a pattern mentions it, ``otherName`` otherwise.
    @inlinable public func symbol(for name: String) -> Int32 {
        symbols[name] ?? Self.otherName
    }

    /// The state of a child named `name` of a node in `state`.
    @inlinable public func transition(from state: State, name: String) -> State {
        transition(from: state, symbol: symbol(for: name))
    }

    /// The state of a child whose name has `symbol` of a node in `state`.
    @inlinable public func transition(from state: State, symbol: Int32) -> State {
        confinement.enter()
        defer { confinement.exit() }
        if let next = states[Int(state)].transitions[symbol] { return next }
        return buildTransition(from: state, symbol: symbol)
    }

    /// The state at the end of `path`, the node names from the root down (the root's path is empty).
    public func state<Path: Sequence>(at path: Path) -> State where Path.Element: StringProtocol {
        confinement.enter()
        defer { confinement.exit() }
        var state = rootState
        for name in path { state = transition(from: state, name: String(name)) }
        return state
    }

    /// The state of the path `path` (`""` for the root, otherwise `/name/name/…`).
    public func state(atPath path: String) -> State {
        state(at: path.split(separator: "/"))
    }

    /// Whether some pattern matches a node in `state`.
    @inlinable public func isFinal(_ state: State) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        return !states[Int(state)].finalPatterns.isEmpty
    }

    /// The indices (into ``patterns``, ascending) of the patterns that match a node in `state`.
    @inlinable public func finalPatterns(in state: State) -> [Int32] {
        confinement.enter()
        defer { confinement.exit() }
        return states[Int(state)].finalPatterns
    }

    @usableFromInline func buildTransition(from state: State, symbol: Int32) -> State {
        var next: [Int32] = []
        func advance(_ position: Int32) {
            let pattern = Int(positionPattern[Int(position)])
            let i = Int(position - firstPosition[pattern])
            guard i < segments[pattern].count else { return }
            let segment = segments[pattern][i]
            if segment == Self.wildcard || segment == symbol { next.append(position + 1) }
        }
        for position in states[Int(state)].positions { advance(position) }
        for position in relativeStarts { advance(position) }
        next.sort()
        let id = intern(next)
        states[Int(state)].transitions[symbol] = id
        return id
    }

    private func intern(_ positions: [Int32]) -> State {
        if let id = stateIDs[positions] { return id }
        var finals = everywhere
        for position in positions {
            let pattern = Int(positionPattern[Int(position)])
            if Int(position - firstPosition[pattern]) == segments[pattern].count { finals.append(Int32(pattern)) }
        }
        finals.sort()
        let id = State(states.count)
        states.append(StateInfo(positions: positions, finalPatterns: finals))
        stateIDs[positions] = id
        return id
    }
}
