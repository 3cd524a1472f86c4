import FocalCore
import FocalEventBus
import FocalJSON
import Synchronization

/// Records the events posted on a bus so a test can assert what was posted.
///
/// ```swift
/// let recorder = EventRecorder(bus: bus)
/// tapButton()
/// #expect(recorder.didPost("did-tap", arguments: ["title": "OK"]))
/// ```
///
/// Recording starts at initialization and stops with ``stop()`` or when the recorder is
/// released.
public final class EventRecorder: Sendable {
    private let recorded = Mutex<[BusEvent]>([])
    private let token = Mutex<ObservationToken?>(nil)

    /// Starts recording every event posted on `bus`, or only those named in `names`.
    public init(bus: EventBus = .shared, names: Set<String>? = nil) {
        let sink: @Sendable (BusEvent) -> Void = { [weak self] event in
            self?.recorded.withLock { $0.append(event) }
        }
        let observation = names.map { bus.observe(names: $0, sink) } ?? bus.observe(sink)
        token.withLock { $0 = observation }
    }

    /// The recorded events, oldest first.
    public var events: [BusEvent] {
        recorded.withLock { $0 }
    }

    /// The names of the recorded events, oldest first.
    public var names: [String] {
        events.map(\.name)
    }

    /// Whether an event named `name` was recorded; when `arguments` is given, its
    /// arguments must also equal them (key order ignored).
    public func didPost(_ name: String, arguments: JSONObject? = nil) -> Bool {
        events.contains { $0.name == name && (arguments == nil || $0.arguments == arguments) }
    }

    /// How many events named `name` were recorded.
    public func count(of name: String) -> Int {
        events.count { $0.name == name }
    }

    /// Forgets everything recorded so far; recording goes on.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    /// Stops recording; the events recorded so far stay available.
    public func stop() {
        token.withLock { $0 }?.cancel()
    }
}
