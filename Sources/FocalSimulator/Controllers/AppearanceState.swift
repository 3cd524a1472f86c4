/// Where a view controller is in its appearance cycle.
public enum AppearanceState: Hashable, Sendable {
    /// Not on screen (the initial state).
    case disappeared
    /// Between `viewWillAppear` and `viewDidAppear`.
    case appearing
    /// On screen.
    case appeared
    /// Between `viewWillDisappear` and `viewDidDisappear`.
    case disappearing
}
