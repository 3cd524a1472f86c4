import HTTPTypes
import NIOHTTP1

extension HTTPHeaders {
    /// Adds `fields` after the fields already here, in their order and with their names as written
    /// (`rawName`), as Hummingbird's codec turns an answer's HTTPTypes fields into NIOHTTP1's.
    mutating func add(_ fields: HTTPFields) {
        for field in fields { add(name: field.name.rawName, value: field.value) }
    }
}
