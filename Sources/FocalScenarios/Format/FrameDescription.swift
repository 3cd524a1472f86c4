import FocalSimulator

/// Where a view goes in its superview.
///
/// Views without a frame are stacked top to bottom, full width, in the order they are listed: controls and labels
/// are 44 points tall, containers as tall as their stacked subviews, tables and collections take the height that
/// is left. `height: 132` keeps the stacking but sets the height; `frame: [x, y, width, height]` places the view
/// exactly.
enum FrameDescription: Sendable {
    /// Stacked, with the default height of the view's kind.
    case stacked
    /// Stacked, with this height.
    case stackedWithHeight(Double)
    /// Exactly this frame.
    case fixed(Rect)

    /// The keys this description reads.
    static let keys = ["frame", "height"]

    /// Reads `frame` or `height` from a view's mapping.
    init(_ fields: ScenarioFields) throws(ScenarioError) {
        if let frame = fields["frame"] {
            if let height = fields["height"] { throw height.error("a view takes 'frame' or 'height', not both") }
            let numbers = try frame.list()
            guard numbers.count == 4 else { throw frame.mismatch("[x, y, width, height]") }
            var parts: [Double] = []
            for number in numbers { parts.append(try number.double()) }
            guard parts[2] >= 0, parts[3] >= 0 else { throw frame.error("a frame's width and height must not be negative") }
            self = .fixed(Rect(x: parts[0], y: parts[1], width: parts[2], height: parts[3]))
        } else if let height = fields["height"] {
            let value = try height.double()
            guard value >= 0 else { throw height.error("'height' must not be negative") }
            self = .stackedWithHeight(value)
        } else {
            self = .stacked
        }
    }
}
