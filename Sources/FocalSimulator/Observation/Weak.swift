/// A weak reference that can be stored in collections and enum cases, for whoever watches simulated objects
/// without keeping them alive (analyzers, scenario apps).
public struct Weak<Object: AnyObject> {
    /// The object, while something else keeps it alive.
    public weak var object: Object?

    /// A weak reference to `object`.
    public init(_ object: Object?) {
        self.object = object
    }
}
