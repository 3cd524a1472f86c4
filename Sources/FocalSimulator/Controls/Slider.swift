/// A control for choosing a value in a range by touching a track: the simulator's `UISlider`.
///
/// The track runs from the slider's left edge to one point before its right edge (so that both ends can be
/// touched); a tap sets ``value`` in proportion to where it lands and sends
/// ``ControlEvents/valueChanged`` (when the value changed) before ``ControlEvents/touchUpInside``.
open class Slider: Control {
    /// The current value, between ``minimumValue`` and ``maximumValue``; key-value observable. Setting it sends
    /// no control event.
    @Observed public var value: Double = 0

    /// The value at the left end of the track.
    public var minimumValue: Double = 0
    /// The value at the right end of the track.
    public var maximumValue: Double = 1

    /// Creates a slider with a range and a value.
    public init(value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 1, frame: Rect = .zero) {
        super.init(frame: frame)
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.value = value
    }

    /// The point of the track, in the slider's coordinates, that stands for `value`.
    public func trackPoint(for value: Double) -> Point {
        let span = maximumValue - minimumValue
        let fraction = span > 0 ? (min(max(value, minimumValue), maximumValue) - minimumValue) / span : 0
        return Point(x: bounds.minX + fraction * trackLength, y: bounds.center.y)
    }

    private var trackLength: Double { max(bounds.width - 1, 0) }

    override func controlWasTapped(_ touch: Touch) {
        let fraction = trackLength > 0 ? (touch.location(in: self).x - bounds.minX) / trackLength : 0
        let newValue = minimumValue + min(max(fraction, 0), 1) * (maximumValue - minimumValue)
        guard newValue != value else { return }
        value = newValue
        sendActions(for: .valueChanged)
    }
}
