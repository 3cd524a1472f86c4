/// One copy of an event that several holders share: a node's first-displayed event and the values it first
/// displayed, or a task's handle (an event object's private data). Made once per event that needs it, where an
/// event of the history needs no allocation.
final class SharedEvent: Sendable {
    let event: Event

    init(_ event: Event) {
        self.event = event
    }

    /// The bytes a holder of a shared copy of `event` is counted for (see ``NodeValues/heldBytes``): the copy's
    /// object and what the event holds. Each holder counts it, so a session's count never falls short of what it
    /// keeps, whoever lets go of the copy last.
    static func heldBytes(of event: borrowing Event) -> Int {
        heapObjectHeader + MemoryLayout<Event>.size + event.heldBytes
    }

    /// The header of a Swift object: its class and reference counts.
    private static let heapObjectHeader = 16
}
