import FocalCore
import FocalEventBus
import FocalJSON

extension ResultRecord {
    /// The name of the bus events that carry task results.
    public static let busEventName = "focal.result"

    /// This result as a bus event named ``busEventName`` with the arguments `result`,
    /// `event`, `path`, `time` and, when there is one, `session`.
    public var busEvent: BusEvent {
        let result = (try? self.result()) ?? .string(resultJSON)
        var arguments: JSONObject = [
            "result": result, "event": .string(event), "path": .string(path), "time": .number(Double(time)),
        ]
        if let session { arguments["session"] = .string(session) }
        return BusEvent(Self.busEventName, arguments: arguments)
    }

    /// The result carried by `event`, or `nil` when it is not a well-formed result event.
    public init?(busEvent event: BusEvent) {
        guard event.name == Self.busEventName, let result = event.arguments["result"],
            let name = event.arguments["event"]?.stringValue, let path = event.arguments["path"]?.stringValue,
            let time = event.arguments["time"]?.integerValue
        else { return nil }
        self.init(
            result: result, event: name, path: path, time: Int64(time), session: event.arguments["session"]?.stringValue)
    }
}
