import FocalJSON
import FocalSimulator

extension PropertyValue {
    /// The value as JSON; records become objects with their keys sorted, so that the op log is the same on
    /// every run.
    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .number(Double(value))
        case .double(let value): .number(value)
        case .string(let value): .string(value)
        case .list(let values): .array(values.map(\.jsonValue))
        case .record(let fields): .object(JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonValue) }))
        }
    }
}
