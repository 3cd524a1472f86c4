/// Slot numbers for the sessions that are live at once (see ``Engine/apply(_:session:line:sessionSlot:)``): each
/// one no other live session has, a freed one first, so the numbers stay below the most sessions ever live at once.
///
/// ``EnginePool`` numbers its open sessions with one; `focal replay`'s reader numbers the sessions live in its input.
package struct SessionSlots {
    private var freed: [Int] = []
    /// The slots ever given out: the next new one.
    private var issued = 0

    package init() {}

    /// A slot no live session has.
    package mutating func take() -> Int {
        if let slot = freed.popLast() { return slot }
        defer { issued += 1 }
        return issued
    }

    /// Gives back the slot of a session that ended (once per slot taken).
    package mutating func free(_ slot: Int) {
        freed.append(slot)
    }
}
