import FocalCore
import FocalJSON

/// A task result seen as an analytics event: the focus path is the object, the event
/// name the action, and the result's members (or the result under `"result"` when it
/// is not an object) the metadata.
public struct ResultEvent: TrackableEvent {
    /// The result.
    public var result: ResultRecord

    /// The event for `result`.
    public init(_ result: ResultRecord) {
        self.result = result
    }

    /// Object: the path; action: the event name.
    public var identifier: EventIdentifier {
        EventIdentifier(object: result.path, action: result.event)
    }

    /// The result's members, or `["result": value]` when the result is not an object.
    public var metadata: JSONObject {
        switch try? result.result() {
        case .object(let members): members
        case let value?: ["result": value]
        case nil: ["result": .string(result.resultJSON)]
        }
    }
}
