/// One finger on the screen, from the moment it goes down until it is lifted.
///
/// The simulator touches with one finger at a time; the same touch object is passed through each phase: it
/// begins, may move, then ends or is cancelled. The view it began on keeps receiving it wherever it moves, as
/// in UIKit.
public final class Touch {
    /// The view the touch was hit-tested to when it began.
    public let view: View
    /// The window the touch happened in.
    public let window: Window
    /// Where the touch is now, in the window's coordinates.
    public internal(set) var locationInWindow: Point
    /// The virtual time, in milliseconds, when the touch entered its current phase.
    public internal(set) var timestamp: Int64
    /// The touch's current phase.
    public internal(set) var phase: TouchPhase

    init(view: View, window: Window, locationInWindow: Point, timestamp: Int64) {
        self.view = view
        self.window = window
        self.locationInWindow = locationInWindow
        self.timestamp = timestamp
        phase = .began
    }

    /// The touch's location in the coordinates of `view`, or of the window when `view` is `nil`.
    public func location(in view: View?) -> Point {
        guard let view else { return locationInWindow }
        return view.convert(locationInWindow, from: window)
    }
}

/// The phase of a ``Touch``.
public enum TouchPhase: Hashable, Sendable {
    /// The finger went down.
    case began
    /// The finger moved.
    case moved
    /// The finger was lifted.
    case ended
    /// The system took the touch away (an incoming call, a scroll view starting to drag).
    case cancelled
}
