/// One copy of an event that several holders share: a node's first-displayed event and the values it first
/// displayed, or a task's handle (an event object's private data). Made once per event that needs it, where an
/// event of the history needs no allocation.
final class SharedEvent: Sendable {
    let event: Event

    init(_ event: Event) {
        self.event = event
    }
}
