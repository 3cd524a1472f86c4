import FocalRuntime

/// The numbers a dispatch and the node members' JavaScript exchange without a call (`NodeBinding`'s `shared`, a
/// ``FocalRuntime/SharedNumbers``), named once: Swift reads and writes them by these names, and the members'
/// JavaScript is written with their indices (``javaScript``), so neither side can drift from the other.
enum DispatchSlot: Int {
    /// How many dispatches have ended: a dispatch's values hold only while it is the count the wrapper entered with.
    case endedDispatches
    /// Whether a task has asked for events (1), which a dispatch then hands over, or none has (0: host code reads them).
    case wantsEvents
    /// Whether a task has asked for values (1), which a dispatch then hands over, or none has (0).
    case wantsValues
    /// The dispatched node's arena index.
    case nodeSlot
    /// The dispatched node's generation.
    case nodeGeneration
    /// The dispatched node's `index` (NaN: none).
    case nodeIndex
    /// Whether the dispatched node is visible (1) or not (0).
    case isVisible
    /// How many values the dispatch hands over (NaN: none asked for yet).
    case handedCount
    /// Which handed values are text in the binding's `valueText`: bit `j` for the `j`th.
    case textValues
    /// Where the first handed value's text starts in `valueText`; its length follows, then the next value's two.
    case firstText

    /// The slot where the text of handed value `value` starts; its length is in the next.
    @inline(__always)
    static func textStart(of value: Int) -> Int { firstText.rawValue + 2 * value }

    /// How many numbers a dispatch that hands over up to `values` values needs.
    static func count(handing values: Int) -> Int { textStart(of: values) }

    /// The index of this slot in the members' JavaScript: `shared[\(DispatchSlot.nodeSlot.javaScript)]` is
    /// `shared[3]`, the same text as the number written by hand.
    var javaScript: String { String(rawValue) }
}

extension SharedNumbers {
    /// The number in `slot`.
    @inline(__always)
    subscript(_ slot: DispatchSlot) -> Double {
        get { self[slot.rawValue] }
        nonmutating set { self[slot.rawValue] = newValue }
    }
}
