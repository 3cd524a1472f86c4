import FocalSimulator

/// A touch a step aimed at a view that UIKit's hit testing gave to another view: an ancestor or a view behind
/// it, when the view takes no touches (`user-interaction: false` on it or around it, a label, a disabled
/// control), or a view in front of it that covers it. The touch goes where hit testing sends it, as on a
/// device; the run warns, so the scenario's author knows the view itself was not touched.
struct TouchFallThrough {
    /// The view the step aimed at.
    let target: View
    /// The view the touch was delivered to.
    let receiver: View

    /// The warning, or `nil` when the touch reached the target or a view inside it.
    func warning(aimedAt description: TargetDescription) -> String? {
        guard receiver !== target, !receiver.isDescendant(of: target) else { return nil }
        return "the touch on \(description) went to \(Self.name(receiver)): \(reason)"
    }

    private var reason: String {
        if let off = sequence(first: target, next: \.superview).first(where: { !$0.isUserInteractionEnabled }) {
            let kind = off is Label ? "a label" : "user-interaction: false"
            return off === target
                ? "it takes no touches (\(kind)), so they fall through to what is behind it"
                : "\(Self.name(off)) around it takes no touches (\(kind)), so they fall through to what is behind it"
        }
        if let control = target as? Control, !control.isEnabled {
            return "it is disabled, so touches fall through to what is behind it"
        }
        return "it is covered by that view, in front of it"
    }

    /// The view's identifier, or its kind.
    private static func name(_ view: View) -> String {
        view.accessibilityIdentifier.map { "'\($0)'" } ?? "a \(String(describing: type(of: view)))"
    }
}
