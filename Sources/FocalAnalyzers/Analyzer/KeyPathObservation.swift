import FocalCore
import FocalJSON
import FocalSimulator

/// Observes a property at a dotted key path (`"textLabel.text"`): every component but the last names a stored
/// property holding a ``KeyValueObservable`` object, looked up once; the last is observed with the simulator's
/// key-value observation. The value is reported at once and after every change (`null` when the path leads
/// nowhere). The objects are not retained.
final class KeyPathObservation {
    private var token: ObservationToken?

    init(object: KeyValueObservable, keyPath: String, report: @escaping (JSONValue) -> Void) {
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let key = components.removeLast()
        var target: KeyValueObservable? = object
        for component in components {
            target = target.flatMap { Self.child(named: component, of: $0) }
        }
        guard let target else {
            report(.null)
            return
        }
        token = target.observe(key, initial: true) { change in
            report(change.newValue)
        }
    }

    /// The observable object stored in `object`'s property `name` (or its lazy storage), searching the class
    /// hierarchy.
    private static func child(named name: String, of object: KeyValueObservable) -> KeyValueObservable? {
        let labels: Set<String> = [name, "_" + name, "$__lazy_storage_$_" + name]
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, labels.contains(label) else { continue }
                if let value = child.value as? KeyValueObservable { return value }
                if let value = child.value as? KeyValueObservable? { return value }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
