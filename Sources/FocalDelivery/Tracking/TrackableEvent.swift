import FocalJSON

/// A typed analytics event: an identifier and metadata.
///
/// ```swift
/// struct SongTapped: TrackableEvent {
///     let song: String
///     var identifier: EventIdentifier { EventIdentifier(object: "Song", action: "Tapped") }
///     var metadata: JSONObject { ["song": .string(song)] }
/// }
/// ```
public protocol TrackableEvent: Sendable {
    /// What the event is.
    var identifier: EventIdentifier { get }
    /// Details; empty by default.
    var metadata: JSONObject { get }
}

extension TrackableEvent {
    /// No details.
    public var metadata: JSONObject { [:] }
}
