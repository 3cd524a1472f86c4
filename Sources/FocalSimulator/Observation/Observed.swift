import FocalJSON

/// Declares a stored property of a ``KeyValueObservable`` class whose changes its observers are told about,
/// under the property's own name.
///
/// ```swift
/// final class Song: KeyValueObservable {
///     @Observed var title = ""
///     @Observed var rating: Int? = nil
/// }
/// ```
///
/// The wrapper may only be used in classes that inherit from ``KeyValueObservable``. Observers are notified after
/// the new value is stored and before any `didSet` of the property runs.
@propertyWrapper
public struct Observed<Value: JSONRepresentable> {
    private var value: Value
    /// The property's name, learnt the first time a change has to be reported.
    private var name: String?
    fileprivate(set) var isProbed = false

    /// Creates the storage with the property's initial value.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Reads and writes the property through its enclosing object, so that writes can notify observers.
    public static subscript<Owner: KeyValueObservable>(
        _enclosingInstance owner: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        get { owner[keyPath: storageKeyPath].value }
        set {
            let oldValue = owner[keyPath: storageKeyPath].value
            owner[keyPath: storageKeyPath].value = newValue
            guard owner.hasPropertyObservers else { return }
            let key = owner[keyPath: storageKeyPath].name ?? learnName(of: owner, storage: storageKeyPath)
            owner.didChangeValue(forKey: key, from: { oldValue.jsonValue }, to: { newValue.jsonValue })
        }
    }

    /// Unavailable: `Observed` works only inside a ``KeyValueObservable`` class.
    @available(*, unavailable, message: "@Observed can only be used in KeyValueObservable classes")
    public var wrappedValue: Value {
        get { fatalError("@Observed can only be used in KeyValueObservable classes") }
        set { fatalError("@Observed can only be used in KeyValueObservable classes") }
    }

    /// Finds the property's name by marking its storage and looking for the marked child in the owner's mirror.
    private static func learnName<Owner: KeyValueObservable>(
        of owner: Owner, storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> String {
        owner[keyPath: storageKeyPath].isProbed = true
        let name = owner.nameOfProbedProperty() ?? "\(storageKeyPath)"
        owner[keyPath: storageKeyPath].isProbed = false
        owner[keyPath: storageKeyPath].name = name
        return name
    }
}

/// What ``KeyValueObservable`` needs to read from an ``Observed`` storage it finds by reflection.
protocol ObservedProperty {
    var currentJSONValue: JSONValue { get }
    var isProbed: Bool { get }
}

extension Observed: ObservedProperty {
    var currentJSONValue: JSONValue { value.jsonValue }
}
