import FocalCore
import FocalJSON
import FocalOpLog
import FocalRuntime

/// For code that drives one engine on a thread it owns (the four other ways in run on it): the focus-path engine, one
/// JavaScript virtual machine hosting many sessions, each with its own tree of named nodes and its own tasks.
///
/// An engine is **confined** to one thread at a time (it is not `Sendable`);
/// ``EnginePool`` runs engines on threads of their own for concurrent use. Engines share
/// nothing, so a process can run many in parallel. Being confined, the engine's hot
/// state opts out of the runtime's exclusivity checks (`@exclusivity(unchecked)`).
///
/// Ops are applied with ``apply(_:session:line:)``. An op without a session belongs to
/// the default session; every other session, named by a `SessionID` (FocalCore: the one set of rules for session
/// ids), is created by its first op and released by an `end` op or ``endSession(_:)``. Sessions never see each
/// other's nodes, ids or task state (a task file's top-level variables), but they share the compiled tasks, so a
/// session costs little.
///
/// Sessions cannot touch each other through JavaScript either: task files and the modules
/// they require are strict (an undeclared assignment is a `ReferenceError`), every session
/// has its own instance of each module (exports and top-level variables), and before any
/// task code runs the engine freezes the global object, the intrinsics and the prototypes
/// of node and event objects (`JSRuntime.lockDown(alsoFreezing:)`), so a
/// write to `globalThis`, `Array.prototype` or `Function.prototype` throws instead of
/// reaching another session. Only compiled code is shared; no mutable value is. Results, errors and snapshots go to the ``observer``
/// synchronously, in order. Errors never stop the engine. Events on nodes that no task
/// can match never enter JavaScript.
///
/// Without ``EngineConfiguration/debug`` the engine reads each task file from disk once,
/// when a session first asks for it, and every later session runs that version: starting
/// a session makes no system call. In debug mode task files are checked at every
/// `register`, and an edit reaches every session, live or new.
public final class Engine {
    public let configuration: EngineConfiguration
    /// Receives results, errors and snapshots. Held strongly, so an observer made just for the
    /// engine (`Engine(configuration:observer: Printer())`) receives everything; an observer that
    /// keeps the engine must set this to `nil` to end the cycle.
    @exclusivity(unchecked) public var observer: (any EngineObserver)?

    let runtime: JSRuntime
    let scripts: TaskScripts
    let binding: NodeBinding

    /// Whether no thread but the calling one is inside the engine (always `true` in release builds): what an
    /// observer whose state opts out of exclusivity checks asserts in its callbacks (`ThreadConfinement`).
    package var isFreeForCurrentThread: Bool { runtime.confinement.isFreeForCurrentThread }
    let generations = GenerationSource()
    /// Decodes the lines given to ``apply(line:number:session:)``, finding their short strings among those of the
    /// lines before them.
    private let decoder = OpDecoder()
    /// Made in `init`, once every other member exists; never `nil` afterwards.
    private(set) var defaultSession: SessionState!
    /// ``defaultSession`` for the ops applied to it, each without a retain and a release of it: the engine holds it
    /// as long as the engine lives.
    private var unretainedDefaultSession: Unmanaged<SessionState>?
    /// Whether an `end` without a session ended the default session and no op of it came since: its end event is
    /// recorded, its tree kept for a snapshot, and its next op starts it afresh.
    @exclusivity(unchecked) private var defaultSessionHasEnded = false
    @exclusivity(unchecked) private var sessions: [String: SessionState] = [:]
    /// Named sessions by the slot their caller gave them (see ``apply(_:session:line:sessionSlot:)``); each also in
    /// `sessions`.
    @exclusivity(unchecked) private var sessionsBySlot: [SessionState?] = []
    /// Creates an engine for the tasks in `configuration.tasksDirectory`.
    /// - Throws: ``EngineError`` of kind ``EngineError/Kind/invalidConfiguration`` when a setting
    ///   is out of its range (``EngineConfiguration/validate()``); of kind
    ///   ``EngineError/Kind/taskFileFailed`` when the tasks directory does not exist.
    public init(configuration: EngineConfiguration, observer: (any EngineObserver)? = nil) throws(EngineError) {
        do throws(ConfigurationError) {
            try configuration.validate()
            runtime = try JSRuntime(timeLimit: configuration.timeLimit, globalObjectClass: NodeBinding.globalClass)
        } catch {
            throw EngineError(error)
        }
        self.configuration = configuration
        self.observer = observer
        // The engine's own setup (bindings, wrappers, the lockdown) is not task code: it runs
        // under the runtime's setup bound, and the configured limit applies from the first task.
        runtime.applyTimeLimit(max(configuration.timeLimit, JSRuntime.setupTimeLimit))
        runtime.installConsole(logger: configuration.consoleLogger)
        do throws(ScriptError) {
            binding = try NodeBinding(runtime: runtime)
            // Hot reload looks at the disk at every register; otherwise each task file is
            // read once for every session.
            scripts = try TaskScripts(
                runtime: runtime, tasksDirectory: configuration.tasksDirectory, watchesFiles: configuration.debug, enter: binding.enter)
        } catch {
            throw EngineError(.taskFileFailed, error.message, script: error)
        }
        do throws(ScriptError) {
            // Every global now exists: from here on no session can change what another sees. `match`
            // is frozen as a root: its global is a getter that gives it only while a file loads.
            try runtime.lockDown(alsoFreezing: binding.sharedPrototypes + [scripts.match.object].compactMap { $0 })
        } catch {
            throw EngineError(.taskFileFailed, "the engine could not freeze its shared JavaScript objects: \(error)", script: error)
        }
        scripts.coverage = configuration.patternCoverage
        runtime.applyTimeLimit(configuration.timeLimit)
        defaultSession = SessionState(id: nil, engine: self)
        unretainedDefaultSession = Unmanaged.passUnretained(defaultSession)
    }

    /// The number of live nodes of the default session.
    public var nodeCount: Int { defaultSession.tree.count }

    /// The number of tasks the default session loaded.
    public var taskCount: Int { defaultSession.library.tasks.count }

    /// The number of live sessions, the default one included.
    public var sessionCount: Int { sessions.count + 1 }

    /// The bytes `session` (the default session when `nil`) holds, as its memory budget counts them
    /// (``EngineConfiguration/maxSessionBytes``; the FocalEngine article "Limits" says what is counted); `nil` when
    /// it has no live state.
    public func heldBytes(ofSession session: SessionID?) -> Int? { liveState(of: session?.rawValue)?.bytes.held }

    /// Applies one op to `session` (the default session when `nil`). `line` is the
    /// op-log line it came from, for error messages.
    public func apply(_ op: Op, session: SessionID? = nil, line: Int? = nil) {
        apply(op, session: session?.rawValue, line: line, sessionSlot: -1)
    }

    /// ``apply(_:session:line:)`` for an op whose session (an id as `SessionID` checks it: the op-log decoder's, a
    /// pool session's) its caller numbered, without a `SessionID` made for each op: `sessionSlot` stands for the session
    /// among the live ones (one number for all its ops while it lives, given to another session once it ended; -1 for
    /// none). The same effect; the session is found at its slot in an array, not by hashing its id in the dictionary
    /// of sessions (with thousands live, that probe missed the cache on most ops). The slot is a hint, checked against
    /// the session's id: a wrong one costs the dictionary's lookup, never another session's op.
    // Inlined into its callers, as `SessionState.apply` is into it: an op (~170 bytes) passed by value through each
    // call was copied into a temporary there, a `memcpy` an op per layer.
    @inline(__always)
    package func apply(_ op: Op, session: String?, line: Int?, sessionSlot: Int) {
        // Every op comes this way: its thread is inside the engine (checked in debug builds) until it returns.
        runtime.confinement.enter()
        defer { runtime.confinement.exit() }
        if case .end(let reason, let time) = op {
            guard let session else { return endDefaultSession(reason: reason, time: time, line: line) }
            if let state = sessions[session] { state.recordEnd(reason: reason, time: time, line: line) }
            guard !endSession(session) else { return }
            var error = EngineError(.invalidOp, "cannot end session '\(session)': it has no live state", line: line)
            error.session = SessionID(held: session)
            observer?.engine(self, didReport: error)
            return
        }
        guard let session else {
            if defaultSessionHasEnded { restartDefaultSession(before: op) }
            return unretainedDefaultSession!._withUnsafeGuaranteedRef { $0.apply(op, line: line) }
        }
        guard let state = state(of: session, slot: sessionSlot) else {
            observer?.engine(self, didReport: .sessionLimitReached(session: session, live: sessions.count, line: line))
            return
        }
        state.apply(op, line: line)
    }

    /// Calls `step` until it returns `false`, each step applying at most one op (or ending one
    /// session), with the JavaScript virtual machine entered once for many task calls instead
    /// of once per call (see `JSRuntime.withOneEntry`, package API of FocalRuntime): the same results and
    /// errors in the same order, each call under its own time and heap limits and its promise
    /// jobs run before the next call, for less work per call. A task call may run up to one tick
    /// of the time limit (an eighth of it, 5 to 100 ms) longer than alone. What a step's op
    /// produces reaches the ``observer`` by the start of the next step (an op with several tasks
    /// to call, or task files to load, calls them right after its step), so take a step's outputs
    /// there or once this returns. In debug mode, which looks for edited task files at every
    /// `register`, every call enters on its own.
    public func withOneEntry(_ step: () -> Bool) {
        guard !configuration.debug else {
            while step() {}
            return
        }
        runtime.withOneEntry(step)
    }

    /// Applies one decoded op-log line.
    public func apply(_ entry: borrowing OpLogEntry, line: Int? = nil) {
        apply(entry.op, session: entry.session, line: line, sessionSlot: -1)
    }

    /// ``apply(_:line:)`` for an entry whose session its reader numbered (see ``apply(_:session:line:sessionSlot:)``).
    package func apply(_ entry: borrowing OpLogEntry, line: Int?, sessionSlot: Int) {
        apply(entry.op, session: entry.session, line: line, sessionSlot: sessionSlot)
    }

    /// Keeps `state` at `slot` of ``sessionsBySlot``, where ``state(of:slot:)`` finds it.
    private func place(_ state: SessionState, at slot: Int) {
        if slot >= sessionsBySlot.count {
            sessionsBySlot.append(contentsOf: repeatElement(nil, count: slot + 1 - sessionsBySlot.count))
        }
        vacateSlot(of: state)
        sessionsBySlot[slot]?.slot = -1
        sessionsBySlot[slot] = state
        state.slot = slot
    }

    /// Empties the slot of ``sessionsBySlot`` that `state` holds, if it holds one.
    private func vacateSlot(of state: SessionState) {
        if state.slot >= 0, sessionsBySlot[state.slot] === state { sessionsBySlot[state.slot] = nil }
    }

    /// Decodes and applies one op-log line; a line that is not a valid op is reported.
    ///
    /// With `session`, the line belongs to that session (as a request body for one session
    /// does): an op without a `session` key goes to it, and one that names another session
    /// is reported, not applied.
    public func apply(line bytes: UnsafeRawBufferPointer, number: Int? = nil, session: SessionID? = nil) {
        apply(line: bytes, number: number, session: session?.rawValue, sessionSlot: -1)
    }

    /// ``apply(line:number:session:)`` for a line whose session (a checked id) its reader numbered (see
    /// ``apply(_:session:line:sessionSlot:)``).
    package func apply(line bytes: UnsafeRawBufferPointer, number: Int?, session: String? = nil, sessionSlot: Int) {
        runtime.confinement.enter()
        defer { runtime.confinement.exit() }
        do throws(OpLogError) {
            guard let entry = try decoder.decodeEntry(bytes, defaultSession: session) else { return }
            if let session, let other = entry.session, other != session {
                throw OpLogError("the op is for session '\(other)', not '\(session)'")
            }
            apply(entry, line: number, sessionSlot: sessionSlot)
        } catch {
            var failure = EngineError(.malformedOp, error.message, line: number)
            failure.session = session.flatMap(SessionID.init(held:))
            observer?.engine(self, didReport: failure)
        }
    }

    /// Releases `session` and everything it holds. Returns whether it was live.
    ///
    /// After a session that held a lot (`FreeMemory.largeSession`), the engine hands the freed memory back to the
    /// system and asks JavaScriptCore for a collection, so the process shrinks again (FocalEngine article "Limits",
    /// what the process keeps).
    @discardableResult
    public func endSession(_ session: SessionID) -> Bool {
        endSession(session.rawValue)
    }

    /// ``endSession(_:)`` for the id of a session the engine made (a `SessionID`'s `rawValue`).
    @discardableResult
    func endSession(_ session: String) -> Bool {
        runtime.confinement.enter()
        defer { runtime.confinement.exit() }
        let held: Int
        do {
            guard let state = sessions.removeValue(forKey: session) else { return false }
            vacateSlot(of: state)
            binding.forget(state.tree)
            held = state.bytes.held
        }
        // The state is gone with the scope above: what it held is free.
        releaseMemory(afterSessionHolding: held)
        return true
    }

    /// After a session that held `held` bytes has gone: when that was a lot (``FreeMemory/largeSession``), asks
    /// JavaScriptCore for a collection and hands the freed memory back to the system.
    private func releaseMemory(afterSessionHolding held: Int) {
        guard held >= FreeMemory.largeSession else { return }
        runtime.collectGarbage()
        FreeMemory.trim()
    }

    /// Records the ``sessionEndedEvent`` with `reason` on the root of `session` (the default
    /// session when `nil`) and, for a named session, releases it. Returns whether it was live.
    @discardableResult
    public func endSession(_ session: SessionID?, reason: SessionEndReason, line: Int? = nil) -> Bool {
        end(session?.rawValue, reason: reason, line: line)
    }

    /// ``endSession(_:reason:line:)`` of a named session, by the id of a session the engine made.
    @discardableResult
    func endSession(_ session: String, reason: SessionEndReason, line: Int? = nil) -> Bool {
        end(session, reason: reason, line: line)
    }

    /// ``endSession(_:reason:line:)`` by the session's id.
    private func end(_ session: String?, reason: SessionEndReason, line: Int?) -> Bool {
        guard recordEnd(ofSession: session, reason: reason, line: line) else { return false }
        if let session { endSession(session) }
        return true
    }

    /// Records the ``sessionEndedEvent`` with `reason` on the root of `session` (the default
    /// session when `nil`) and keeps the session. Returns whether it was live; the default session is not once an
    /// `end` op ended it, until its next op.
    @discardableResult
    public func recordSessionEnd(_ session: SessionID?, reason: SessionEndReason, line: Int? = nil) -> Bool {
        recordEnd(ofSession: session?.rawValue, reason: reason, line: line)
    }

    /// ``recordSessionEnd(_:reason:line:)`` by the id of a session the engine made (one of ``sessionIDs``, say).
    @discardableResult
    package func recordEnd(ofSession session: String?, reason: SessionEndReason, line: Int? = nil) -> Bool {
        guard let state = liveState(of: session), session != nil || !defaultSessionHasEnded else { return false }
        state.recordEnd(reason: reason, time: nil, line: line)
        return true
    }

    /// Ends the default session as an `end` op without a session does (FocalOpLog article "The op log", sessions):
    /// records its end event at `time` unless it has ended already with no op since; its tree stays until its next
    /// op.
    private func endDefaultSession(reason: SessionEndReason, time: Int64?, line: Int?) {
        guard !defaultSessionHasEnded else { return }
        defaultSession.recordEnd(reason: reason, time: time, line: line)
        defaultSessionHasEnded = true
    }

    /// Replaces the ended default session by a new one before `op`, as a named session's next op after its end starts
    /// it anew; a snapshot still shows the ended session's tree.
    private func restartDefaultSession(before op: Op) {
        if case .snapshot = op { return }
        defaultSessionHasEnded = false
        let held = defaultSession.bytes.held
        binding.forget(defaultSession.tree)
        defaultSession = SessionState(id: nil, engine: self)
        unretainedDefaultSession = Unmanaged.passUnretained(defaultSession)
        releaseMemory(afterSessionHolding: held)
    }

    /// The ids of the live named sessions, in ascending order (the order in which the end
    /// of input ends them, after the default session).
    public var sessionIDs: [String] { sessions.keys.sorted() }

    /// The end of the input: every live session, the default one first and then the named
    /// ones in ascending order of id, records the ``sessionEndedEvent`` (reason
    /// `end-of-input`). The sessions are not released: nothing comes after the end of the
    /// input, and a snapshot may still be taken.
    public func endOfInput() {
        recordEnd(ofSession: nil, reason: .endOfInput)
        for id in sessionIDs { recordEnd(ofSession: id, reason: .endOfInput) }
    }

    /// Whether `session` (the default session when `nil`) has live state.
    public func hasSession(_ session: SessionID?) -> Bool {
        liveState(of: session?.rawValue) != nil
    }

    /// ``hasSession(_:)`` of a named session, by the id of a session the engine made.
    func hasSession(_ session: String) -> Bool {
        sessions[session] != nil
    }

    /// The session's state if it is live; never creates one.
    func liveState(of session: String?) -> SessionState? {
        guard let session else { return defaultSession }
        return sessions[session]
    }

    /// The state of `session`, found at `slot` when it is there (see ``apply(_:session:line:sessionSlot:)``), else
    /// found or created as ``state(of:)`` does and kept at `slot`; `nil` when creating it would pass
    /// ``EngineConfiguration/maxSessions``.
    private func state(of session: String, slot: Int) -> SessionState? {
        guard slot >= 0 else { return state(of: session) }
        if slot < sessionsBySlot.count, let state = sessionsBySlot[slot], state.id == session { return state }
        guard let state = state(of: session) else { return nil }
        place(state, at: slot)
        return state
    }

    /// The session's state, created on first use; `nil` when creating it would pass
    /// ``EngineConfiguration/maxSessions``.
    func state(of session: String?) -> SessionState? {
        guard let session else { return defaultSession }
        if let state = sessions[session] { return state }
        guard sessions.count < configuration.maxSessions else { return nil }
        let state = SessionState(id: session, engine: self)
        sessions[session] = state
        return state
    }
}
