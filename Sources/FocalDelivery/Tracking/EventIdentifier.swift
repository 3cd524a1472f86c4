import Foundation

/// What an analytics event is: an object, an action on it, and an optional label,
/// e.g. *Song / Tapped / More Info*.
public struct EventIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The thing acted on, e.g. `Song`.
    public var object: String
    /// What happened to it, e.g. `Tapped`.
    public var action: String
    /// A refinement, e.g. `More Info`.
    public var label: String?

    /// An identifier of `object`, `action` and an optional `label`.
    public init(object: String, action: String, label: String? = nil) {
        self.object = object
        self.action = action
        self.label = label
    }

    /// `Object: Action`, or `Object: Action - Label` when there is a label.
    public var formatted: String {
        label.map { "\(object): \(action) - \($0)" } ?? "\(object): \(action)"
    }

    /// `object_action_label` in lower case with spaces as `_`, e.g. `song_tapped_more_info`.
    public func underscoredLowercased() -> String {
        ([object, action] + (label.map { [$0] } ?? []))
            .joined(separator: "_")
            .lowercased()
            .replacingOccurrences(of: " ", with: "_")
    }

    /// The ``formatted`` identifier.
    public var description: String { formatted }
}
