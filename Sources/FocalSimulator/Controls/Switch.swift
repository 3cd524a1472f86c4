/// A control with an on and an off state that a tap toggles: the simulator's `UISwitch`.
///
/// A tap toggles ``isOn`` and sends ``ControlEvents/valueChanged`` before ``ControlEvents/touchUpInside``.
open class Switch: Control {
    /// Whether the switch is on; key-value observable. Setting it sends no control event.
    @Observed public var isOn = false

    /// Creates a switch.
    public init(isOn: Bool = false, frame: Rect = .zero) {
        super.init(frame: frame)
        self.isOn = isOn
    }

    override func controlWasTapped(_ touch: Touch) {
        isOn.toggle()
        sendActions(for: .valueChanged)
    }
}
