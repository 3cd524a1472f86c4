import FocalJSON
import FocalOpLog

/// What a node remembers: its latest event, its last ten events, its visibility and
/// its current values, each with the event that first displayed it.
///
/// The rules (README, "Node state"):
/// - every event joins the history and becomes the latest event;
/// - `ana-appeared` / `ana-disappeared` set visibility; on a change to visible the event
///   becomes the first-displayed event if there is none, and every current value without
///   a first-displayed event gets it;
/// - `ana-updated` with `key-path` and `value`: an equal value (structural JSON equality)
///   changes nothing; a different one becomes current, first displayed by this event when
///   the node is visible and by none otherwise. An absent `value` and `null` both mean
///   "no value".
public struct NodeState {
    /// How many events the history keeps.
    public static let historyLimit = 10

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

    /// Applies `event` to the state.
    public mutating func apply(_ event: Event) {
        if recent.count < Self.historyLimit {
            recent.append(event)
        } else {
            recent[oldest] = event
            oldest = (oldest + 1) % Self.historyLimit
        }
        latestEvent = event
        switch event.name {
        case SpecialEvent.appeared:
            guard !isVisible else { return }
            isVisible = true
            if firstDisplayedEvent == nil { firstDisplayedEvent = event }
            for key in values.keys where values[key]?.firstDisplayedEvent == nil {
                values[key]?.firstDisplayedEvent = event
            }
        case SpecialEvent.disappeared:
            isVisible = false
        case SpecialEvent.updated:
            guard case .string(let keyPath)? = event.properties[SpecialEvent.keyPath] else { return }
            var value = event.properties[SpecialEvent.value]
            if value?.isNull == true { value = nil }
            // A missing holder and a holder without a value both mean "no value".
            if values[keyPath]?.value == value { return }
            values[keyPath] = value.map { Value(value: $0, firstDisplayedEvent: isVisible ? event : nil) }
        default:
            return
        }
    }
}
