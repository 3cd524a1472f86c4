import FocalJSON
import FocalOpLog

/// What a node remembers: its latest event, its last ten events (each with the results
/// tasks produced for it), its visibility and its current values, each with the event that
/// first displayed it.
///
/// The rules (FocalEngine article "Node state"):
/// - every event joins the history and becomes the latest event;
/// - `ana-appeared` / `ana-disappeared` set visibility; on a change to visible the event
///   becomes the first-displayed event if there is none, and every current value without
///   a first-displayed event gets it;
/// - `ana-updated` with `key-path` and `value`: an equal value (structural JSON equality)
///   changes nothing; a different one becomes current, first displayed by this event when
///   the node is visible and by none otherwise. An absent `value` and `null` both mean
///   "no value". A node holds at most ``valueLimit`` values: an `ana-updated` that would
///   add one more is refused and changes nothing.
/// - the outcomes of the tasks an event fired (results; tasks that threw or timed out; with
///   ``EngineConfiguration/keepsNoResults``, tasks that returned `undefined`) are kept with it
///   in the history, at most ``resultsPerEventLimit`` of them (see ``KeptResults``), for snapshots.
public struct NodeState {
    /// How many events the history keeps.
    public static let historyLimit = 10
    /// The most values (distinct key paths with a value) one node holds. Every
    /// `ana-appeared` visits them, so the limit bounds the work of one event.
    public static let valueLimit = 1024
    /// The room the history has at a node's first event: the events of a row (two updates, appearing,
    /// disappearing); a node with more gets room for the whole ring.
    static let initialHistoryCapacity = 4
    /// How many results of one event the history keeps (the first ones produced).
    public static let resultsPerEventLimit = 4
    /// The longest result (in bytes of JSON text) the history keeps the text of.
    public static let resultTextLimit = 512

    public private(set) var isVisible = false
    /// Where the next event goes once the history is full (see `recent`): 32 bits beside `isVisible`, in what was the
    /// padding before `firstDisplayed`, so that a state takes 56 bytes rather than 64.
    private var oldestSlot: Int32 = 0
    /// The newest event of the history (kept there only: a second copy cost a retain and a release per event).
    public var latestEvent: Event? { recent.isEmpty ? nil : recent[newestSlot] }
    /// The event that first made the node visible.
    public var firstDisplayedEvent: Event? { firstDisplayed?.event }
    /// ``firstDisplayedEvent``, shared with the values it first displayed (made when the node first appears).
    private(set) var firstDisplayed: SharedEvent?
    public private(set) var values = NodeValues()
    /// The newest events, oldest first.
    public var history: [Event] {
        recent.count < Self.historyLimit ? recent : Array(recent[oldest...] + recent[..<oldest])
    }
    /// The results kept for each event of ``history``, in the same order.
    public var historyResults: [KeptResults] {
        var results = Array(repeating: KeptResults(), count: recent.count)
        for (slot, result) in kept { results[Int(slot)].keep(result) }
        for (slot, count) in omitted { results[Int(slot)].omitted = count }
        return recent.count < Self.historyLimit ? results : Array(results[oldest...] + results[..<oldest])
    }
    /// The history as a ring once it is full: `oldest` is where the next event goes, so
    /// recording an event overwrites one slot instead of shifting ten. The events are kept in place (values):
    /// recording one allocates nothing once the ring has its room.
    private var recent: [Event] = []
    /// The results kept for the events of `recent`, each with the slot of its event, in the
    /// order they were produced: one array for the whole history, empty until the node's
    /// first result, so a node no task answers for costs nothing more and a result costs no
    /// array of its own.
    private var kept: [(slot: Int32, result: KeptResult)] = []
    /// For the slots of `recent` whose event had more than ``resultsPerEventLimit`` results,
    /// how many more.
    private var omitted: [(slot: Int32, count: Int)] = []
    private var oldest: Int {
        get { Int(oldestSlot) }
        set { oldestSlot = Int32(newValue) }
    }
    /// The slot of `recent` that holds the latest event, when there is one.
    private var newestSlot: Int {
        recent.count < Self.historyLimit ? recent.count - 1 : (oldest + Self.historyLimit - 1) % Self.historyLimit
    }

    /// The current value of a key path and the event that first displayed it.
    public struct Value {
        public var value: JSONValue
        /// The event that first displayed the value, shared with the node's other holders of it.
        var firstDisplayed: SharedEvent?
        /// The event that first displayed the value, or `nil` when none has yet.
        public var firstDisplayedEvent: Event? { firstDisplayed?.event }
    }

    /// The outcomes of the tasks one event of the history fired (``TaskOutcome``): the first
    /// ``NodeState/resultsPerEventLimit`` of them, and how many more there were.
    public struct KeptResults: Sendable {
        public private(set) var results: [KeptResult] = []
        /// Outcomes past the limit, counted but not kept.
        public fileprivate(set) var omitted = 0

        fileprivate mutating func keep(_ result: KeptResult) { results.append(result) }
    }

    /// One outcome in the history: the task and what it did for the event (a result, and with
    /// ``EngineConfiguration/keepsNoResults`` no result; throwing and timing out always).
    public struct KeptResult: Sendable {
        public var task: TaskReference
        public var outcome: TaskOutcome
    }

    public init() {}

    /// Keeps a result that `task` produced for the latest event (the one just applied). Returns how many bytes the
    /// state holds more (see ``heldBytes``).
    mutating func keepResult(_ json: String, of task: TaskReference) -> Int {
        let count = json.utf8.count
        return keep(.result(json: count <= Self.resultTextLimit ? json : nil, byteCount: count), of: task)
    }

    /// Keeps what `task` did for the latest event (the one just applied), as ``keepResult(_:of:)`` keeps a result.
    mutating func keep(_ outcome: TaskOutcome, of task: TaskReference) -> Int {
        guard !recent.isEmpty else { return 0 }
        let slot = Int32(newestSlot)
        var keptForEvent = 0
        for entry in kept where entry.slot == slot { keptForEvent += 1 }
        guard keptForEvent < Self.resultsPerEventLimit else {
            if let index = omitted.firstIndex(where: { $0.slot == slot }) {
                omitted[index].count += 1
                return 0
            }
            omitted.append((slot, 1))
            return Self.omittedStride
        }
        kept.append((slot, KeptResult(task: task, outcome: outcome)))
        return heldBytes(ofKept: kept.count - 1)
    }

    /// Why ``apply(_:updateMembers:bytes:)`` refused an event.
    enum Refusal: Error {
        /// The event is an `ana-updated` that would give the node a value for one key path more than ``valueLimit``.
        case valueLimit
        /// The event would take its session past its memory budget (``SessionBytes/limit``).
        case sessionBytes
    }

    /// Applies `event` to the state. Returns `false`, changing nothing, when `event` is an
    /// `ana-updated` that would give the node a value for one key path more than ``valueLimit``.
    public mutating func apply(_ event: Event) -> Bool {
        var unlimited = SessionBytes(limit: SessionBytes.unlimited)
        return apply(event, updateMembers: .unread, bytes: &unlimited) == nil
    }

    /// ``apply(_:)`` with the members of the event's properties that an `ana-updated` reads, when the decoder read
    /// them (see ``FocalOpLog/UpdateMembers``), counting what the state holds more in `bytes` (see ``heldBytes``).
    /// Returns why it changed nothing, or `nil` when it applied the event; an event that would take `bytes` past its
    /// limit is refused unless it is not `budgeted` (a session's end event, which always goes in), though the values
    /// that an `ana-appeared` marks as first displayed by it are counted after the check (each counts the event,
    /// whose one copy they share).
    mutating func apply(
        _ event: consuming Event, updateMembers: borrowing UpdateMembers, bytes: inout SessionBytes, budgeted: Bool = true
    ) -> Refusal? {
        // The history gains the event and, once full, loses its oldest with that one's results.
        var added = MemoryLayout<Event>.stride + event.heldBytes
        if recent.count == Self.historyLimit { added -= heldBytes(ofSlot: oldestSlot) }
        let room = budgeted ? bytes.room : SessionBytes.unlimited
        guard added <= room else { return .sessionBytes }
        // The name is compared with each special event at most once (their lengths first: most events are none of
        // them), and an update's properties are read once.
        if event.name.hasSameText(as: SpecialEvent.updated) {
            // What the decoder read of the properties (borrowed: most events are not updates, and a copy of what it
            // read cost every event a call), or the two members read from their text in one pass.
            var change: (keyPath: String, value: JSONValue?)?
            switch updateMembers {
            case .keyPath(let keyPath, let value): change = (keyPath, value)
            case .noKeyPath: break
            case .unread:
                if case (.string(let keyPath)?, let value) = event.lazyProperties.values(of: SpecialEvent.keyPath, and: SpecialEvent.value)
                {
                    change = (keyPath, value)
                }
            }
            if let change {
                // An absent value and `null` both mean "no value".
                let value = change.value?.isNull == true ? nil : change.value
                if value != nil, values.count >= Self.valueLimit, values[change.keyPath] == nil { return .valueLimit }
                guard
                    let changed = values.set(
                        change.keyPath, to: value, firstDisplayedBy: event, isDisplayed: isVisible, room: room - added)
                else {
                    return .sessionBytes
                }
                added += changed
            }
        } else if event.name.hasSameText(as: SpecialEvent.appeared) {
            if !isVisible {
                isVisible = true
                // One shared copy for the node and its values, made only when one of them takes it.
                var shared: SharedEvent?
                if firstDisplayed == nil {
                    shared = SharedEvent(copy event)
                    firstDisplayed = shared
                    added += SharedEvent.heldBytes(of: event)
                }
                added += values.markFirstDisplayed(by: event, sharing: &shared)
            }
        } else if event.name.hasSameText(as: SpecialEvent.disappeared) {
            isVisible = false
        }
        // The event goes into the history last, moved there: it is copied only where it is shared.
        if recent.count < Self.historyLimit {
            // Room for a row's few events at once, then for the whole ring: growing it one event at a time would
            // reallocate it at the 2nd, 3rd and 5th event of every node, and the whole ring at the first would
            // hold room for ten events on every row that records four.
            if recent.count == recent.capacity {
                recent.reserveCapacity(recent.isEmpty ? Self.initialHistoryCapacity : Self.historyLimit)
            }
            recent.append(event)
        } else {
            recent[oldest] = event
            // The event that leaves the history takes its results along.
            let slot = oldestSlot
            if !kept.isEmpty { kept.removeAll { $0.slot == slot } }
            if !omitted.isEmpty { omitted.removeAll { $0.slot == slot } }
            oldest = (oldest + 1) % Self.historyLimit
        }
        bytes.held += added
        return nil
    }

    /// The bytes the state holds, as a session's memory budget counts them (FocalEngine article "Limits"): each event
    /// of the history at its place and its heap bytes, the results kept with it, the values (``NodeValues/heldBytes``)
    /// and the first-displayed event. Linear in what the state holds (at most ten events, forty results and
    /// ``valueLimit`` values); ``apply(_:updateMembers:bytes:)`` and ``keepResult(_:of:)`` say how each change moves it.
    var heldBytes: Int {
        // One pass over each array, each element read in place: a node's removal pays this.
        var bytes = values.heldBytes + recent.count * MemoryLayout<Event>.stride + omitted.count * Self.omittedStride
        if let firstDisplayed { bytes += SharedEvent.heldBytes(of: firstDisplayed.event) }
        for slot in recent.indices { bytes += recent[slot].heldBytes }
        for position in kept.indices { bytes += heldBytes(ofKept: position) }
        return bytes
    }

    /// The bytes the event at `slot` of the history holds, with the results kept for it.
    private func heldBytes(ofSlot slot: Int32) -> Int {
        var bytes = MemoryLayout<Event>.stride + recent[Int(slot)].heldBytes
        for position in kept.indices where kept[position].slot == slot { bytes += heldBytes(ofKept: position) }
        for entry in omitted where entry.slot == slot { bytes += Self.omittedStride }
        return bytes
    }

    /// The bytes the result kept at `position` holds: its place and its text.
    private func heldBytes(ofKept position: Int) -> Int {
        Self.keptStride + kept[position].result.outcome.heldBytes
    }

    private static let keptStride = MemoryLayout<(slot: Int32, result: KeptResult)>.stride
    private static let omittedStride = MemoryLayout<(slot: Int32, count: Int)>.stride

    /// Forgets everything, as a new state knows nothing, keeping the storage of the history, values and results for
    /// the node that takes this one's slot (see ``NodePayload/vacate()``).
    mutating func empty() {
        isVisible = false
        firstDisplayed = nil
        values.removeAll()
        recent.removeEach()
        kept.removeEach()
        omitted.removeEach()
        oldest = 0
    }

    /// The serial of the latest event, read in place (``latestEvent`` is a copy).
    var latestEventSerial: UInt64? { recent.isEmpty ? nil : recent[newestSlot].serial }

    /// The latest event as a shared copy: ``firstDisplayed`` when it is that event (a row's latest event is often
    /// the one that first displayed it), a new one otherwise.
    func sharedLatestEvent() -> SharedEvent? {
        guard !recent.isEmpty else { return nil }
        if let firstDisplayed, firstDisplayed.event.serial == recent[newestSlot].serial { return firstDisplayed }
        return SharedEvent(recent[newestSlot])
    }
}
