/// How a presented view controller covers the controllers beneath it.
public enum ModalPresentationStyle: Hashable, Sendable {
    /// The presented view replaces everything beneath it: the presenter's view leaves the window and the
    /// presenter disappears until the presentation is dismissed.
    case fullScreen
    /// The presented view is laid over the presenter's, which stays in the window and does not disappear (like
    /// UIKit's over-full-screen and sheet presentations).
    case overFullScreen
}
