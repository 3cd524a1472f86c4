import FocalSimulator

/// Keeps the focus marks of a session short-lived.
///
/// A mark (``Analyzer/markFocused()``, or automatic on a control tap or row selection) tells the analyzers from
/// the marked one up to the root which element the user acted on, so that a screen that appears *because of*
/// that action is placed under that element. In the iOS original a mark never went away, so a screen opened
/// much later from an unrelated button was still placed under a row selected long ago. Here a mark lasts until
/// one of these comes first:
/// - a screen is placed under it (a mark serves one screen);
/// - the run-loop turn of the user action that set it ends (after the work the app scheduled for "now" in that
///   action, such as a deferred push).
final class FocusTracker {
    private var marked: [Weak<Analyzer>] = []
    private var isExpiryScheduled = false

    /// Marks `object` as focused on each analyzer of `chain` (the marked analyzer, then its ancestors).
    func mark(_ object: Responder, on chain: [Analyzer], clock: VirtualClock) {
        clear()
        for analyzer in chain {
            analyzer.focusedObject = Weak(object)
            marked.append(Weak(analyzer))
        }
        scheduleExpiry(on: clock)
    }

    /// Removes every mark.
    func clear() {
        for analyzer in marked {
            analyzer.object?.focusedObject = Weak(nil)
        }
        marked = []
    }

    /// Clears the marks at the end of the current run-loop turn. The expiry is queued when the mark is set and
    /// queued again when it first runs, so that the work the app schedules for "now" while handling the action
    /// (after the mark was set) runs before the marks go.
    private func scheduleExpiry(on clock: VirtualClock) {
        guard !isExpiryScheduled else { return }
        isExpiryScheduled = true
        clock.perform(after: 0) { [weak self, weak clock] in
            clock?.perform(after: 0) {
                self?.isExpiryScheduled = false
                self?.clear()
            }
        }
    }
}
