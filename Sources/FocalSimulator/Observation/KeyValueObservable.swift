import FocalCore
import FocalJSON

/// An object whose properties can be observed by name, like Key-Value Observing.
///
/// Every ``Responder`` is key-value observable; subclass this class for app *model* objects. Properties declared
/// with ``Observed`` notify observers under their own name; override ``value(forKey:)`` and call
/// ``didChangeValue(forKey:from:to:)`` for properties stored some other way.
///
/// Observers are told about real changes only: assigning an equal value notifies nobody.
///
/// ```swift
/// final class Song: KeyValueObservable {
///     @Observed var title = ""
/// }
/// let token = song.observe("title") { change in print(change.newValue) }
/// ```
///
/// Models Key-Value Observing (`observe(_:options:changeHandler:)` on `NSObject` subclasses with `@objc dynamic` properties).
open class KeyValueObservable {
    private var propertyObservers: ObserverList<PropertyChange>?

    /// Creates an object with no observers.
    public init() {}

    /// Observes the property named `key`.
    ///
    /// - Parameters:
    ///   - key: the property's name, for example `"text"`.
    ///   - initial: whether to call `handler` at once with the current value (a change whose `oldValue` is `nil`).
    ///   - handler: called after each change of the property.
    /// - Returns: the token that keeps the observation alive.
    public func observe(
        _ key: String, initial: Bool = false, _ handler: @escaping (PropertyChange) -> Void
    ) -> ObservationToken {
        let observers = propertyObservers ?? ObserverList()
        propertyObservers = observers
        let token = observers.add(topic: key, handler)
        if initial {
            handler(PropertyChange(key: key, oldValue: nil, newValue: value(forKey: key) ?? .null))
        }
        return token
    }

    /// The current value of the property named `key`, or `nil` if there is no such observable property.
    ///
    /// The default implementation finds properties declared with ``Observed``; override it to add others, and
    /// call `super` for the rest.
    open func value(forKey key: String) -> JSONValue? {
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children where child.label == "_" + key {
                if let property = child.value as? any ObservedProperty {
                    return property.currentJSONValue
                }
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// Tells the observers of `key` that its value changed from `oldValue` to `newValue`; does nothing if the two
    /// are equal.
    public func didChangeValue(forKey key: String, from oldValue: JSONValue, to newValue: JSONValue) {
        didChangeValue(forKey: key, from: { oldValue }, to: { newValue })
    }

    /// Tells the observers of `key` about a change, building the values only if somebody observes `key`.
    func didChangeValue(forKey key: String, from oldValue: () -> JSONValue, to newValue: () -> JSONValue) {
        guard let propertyObservers, propertyObservers.hasObservers(of: key) else { return }
        let change = PropertyChange(key: key, oldValue: oldValue(), newValue: newValue())
        guard change.oldValue != change.newValue else { return }
        propertyObservers.notify(change, topic: key)
    }

    /// Whether anybody observes a property of this object; lets storage skip finding a property's name.
    var hasPropertyObservers: Bool {
        !(propertyObservers?.isEmpty ?? true)
    }

    /// The name of the ``Observed`` property that is currently marked as being probed.
    func nameOfProbedProperty() -> String? {
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any ObservedProperty, property.isProbed, let label = child.label {
                    return String(label.dropFirst())
                }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
