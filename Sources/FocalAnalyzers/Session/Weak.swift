/// A weak reference that can be stored in collections and enum cases.
struct Weak<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}
