import FocalJSON
import FocalOpLog

/// What a node remembers: its latest event, its last ten events, its visibility and
/// its current values, each with the event that first displayed it.
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
public struct NodeState {
    /// How many events the history keeps.
    public static let historyLimit = 10
    /// The most values (distinct key paths with a value) one node holds. Every
    /// `ana-appeared` visits them, so the limit bounds the work of one event.
    public static let valueLimit = 1024

    public private(set) var isVisible = false
    public private(set) var latestEvent: Event?
    public private(set) var firstDisplayedEvent: Event?
    public private(set) var values: [String: Value] = [:]
    /// The newest events, oldest first.
    public var history: [Event] {
        recent.count < Self.historyLimit ? recent : Array(recent[oldest...] + recent[..<oldest])
    }
    /// The history as a ring once it is full: `oldest` is where the next event goes, so
    /// recording an event overwrites one slot instead of shifting ten.
    private var recent: [Event] = []
    private var oldest = 0

    /// The current value of a key path and the event that first displayed it.
    public struct Value {
        public var value: JSONValue
        public var firstDisplayedEvent: Event?
    }

    public init() {}

    /// Applies `event` to the state. Returns `false`, changing nothing, when `event` is an
    /// `ana-updated` that would give the node a value for one key path more than ``valueLimit``.
    public mutating func apply(_ event: Event) -> Bool {
        if event.name == SpecialEvent.updated, values.count >= Self.valueLimit,
            case .string(let keyPath)? = event.properties[SpecialEvent.keyPath], values[keyPath] == nil,
            event.properties[SpecialEvent.value]?.isNull == false
        {
            return false
        }
        if recent.count < Self.historyLimit {
            recent.append(event)
        } else {
            recent[oldest] = event
            oldest = (oldest + 1) % Self.historyLimit
        }
        latestEvent = event
        switch event.name {
        case SpecialEvent.appeared:
            guard !isVisible else { return true }
            isVisible = true
            if firstDisplayedEvent == nil { firstDisplayedEvent = event }
            for key in values.keys where values[key]?.firstDisplayedEvent == nil {
                values[key]?.firstDisplayedEvent = event
            }
        case SpecialEvent.disappeared:
            isVisible = false
        case SpecialEvent.updated:
            guard case .string(let keyPath)? = event.properties[SpecialEvent.keyPath] else { return true }
            var value = event.properties[SpecialEvent.value]
            if value?.isNull == true { value = nil }
            // A missing holder and a holder without a value both mean "no value".
            if values[keyPath]?.value == value { return true }
            values[keyPath] = value.map { Value(value: $0, firstDisplayedEvent: isVisible ? event : nil) }
        default:
            break
        }
        return true
    }
}
