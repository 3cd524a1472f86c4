/// The events a ``Control`` sends to its actions and observers.
///
/// A set of events is used to register actions; events are sent one at a time, in the order they happen.
///
/// Models `UIControl.Event`.
public struct ControlEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A finger went down on the control.
    public static let touchDown = ControlEvents(rawValue: 1 << 0)
    /// A finger was lifted inside the control: a tap.
    public static let touchUpInside = ControlEvents(rawValue: 1 << 1)
    /// A finger that went down on the control was lifted outside it.
    public static let touchUpOutside = ControlEvents(rawValue: 1 << 2)
    /// The user changed the control's value (a switch's ``Switch/isOn``, a slider's ``Slider/value``).
    public static let valueChanged = ControlEvents(rawValue: 1 << 3)
    /// A text field became first responder.
    public static let editingDidBegin = ControlEvents(rawValue: 1 << 4)
    /// The user changed a text field's text.
    public static let editingChanged = ControlEvents(rawValue: 1 << 5)
    /// A text field stopped being first responder.
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 6)
    /// The user pressed return in a text field (it then resigns first responder).
    public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 7)
    /// The system cancelled a touch that went down on the control (it never ended, inside or outside).
    public static let touchCancel = ControlEvents(rawValue: 1 << 8)

    /// Every event, each on its own, in declaration order.
    public static let allEvents: [ControlEvents] = [
        .touchDown, .touchUpInside, .touchUpOutside, .touchCancel, .valueChanged,
        .editingDidBegin, .editingChanged, .editingDidEnd, .editingDidEndOnExit,
    ]

    private static let names: [(ControlEvents, String)] = [
        (.touchDown, "touch-down"), (.touchUpInside, "touch-up-inside"), (.touchUpOutside, "touch-up-outside"),
        (.touchCancel, "touch-cancel"),
        (.valueChanged, "value-changed"), (.editingDidBegin, "editing-did-begin"),
        (.editingChanged, "editing-changed"), (.editingDidEnd, "editing-did-end"),
        (.editingDidEndOnExit, "editing-did-end-on-exit"),
    ]

    /// The kebab-case names of the events in the set, joined by `|` (for example `touch-up-inside`), the form
    /// analytics events use.
    public var description: String {
        Self.names.filter { contains($0.0) }.map(\.1).joined(separator: "|")
    }
}
