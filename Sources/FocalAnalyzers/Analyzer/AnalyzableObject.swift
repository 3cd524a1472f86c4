import FocalSimulator

/// A responder type that declares how its analyzer is set up: its task namespace and the properties holding
/// the objects that become its sub-analyzers.
///
/// ```swift
/// final class PlayerController: ViewController, AnalyzableObject {
///     let playButton = Button()
///     var tracks: [TrackView] = []
///     static let analyticsNamespace: String? = "player"
///     static let subAnalyzableKeys: [SubAnalyzableKey] = [
///         .single("play") { (controller: PlayerController) in controller.playButton },
///         .list("track") { (controller: PlayerController) in controller.tracks },
///     ]
/// }
/// ```
public protocol AnalyzableObject: Responder {
    /// The namespace of the nodes of this type (the task file `A/B.js` for `A.B`), or `nil` for none. Declaring
    /// it keeps task files working when the type is renamed. By default, the type's name.
    static var analyticsNamespace: String? { get }

    /// The properties whose objects are enabled as sub-analyzers under the key's name, in order.
    ///
    /// They are read when the analyzer is enabled, when the object's view loads or is about to appear, when a
    /// view moves to a window, and when ``Analyzer/refreshSubAnalyzers()`` is called; an object that replaced
    /// another takes its place and the old one's node is removed.
    static var subAnalyzableKeys: [SubAnalyzableKey] { get }
}

extension AnalyzableObject {
    /// The type's name.
    public static var analyticsNamespace: String? { Analyzer.namespace(forTypeName: String(describing: self)) }

    /// None.
    public static var subAnalyzableKeys: [SubAnalyzableKey] { [] }
}

/// A property of an ``AnalyzableObject`` whose object, or objects, become sub-analyzers.
public struct SubAnalyzableKey: Sendable {
    /// The key: the name of the sub-analyzers' nodes.
    public let name: String
    /// Whether the property holds a list (its objects get their position as index) or one object.
    public let isList: Bool
    private let read: @Sendable (Responder) -> [Responder]

    /// A property holding one object (or none).
    public static func single<Owner: Responder>(_ name: String, _ value: @escaping @Sendable (Owner) -> Responder?) -> SubAnalyzableKey {
        SubAnalyzableKey(name: name, isList: false) { owner in
            (owner as? Owner).flatMap(value).map { [$0] } ?? []
        }
    }

    /// A property holding a list of objects; each object's node gets its position as index.
    public static func list<Owner: Responder>(_ name: String, _ values: @escaping @Sendable (Owner) -> [Responder]) -> SubAnalyzableKey {
        SubAnalyzableKey(name: name, isList: true) { owner in
            (owner as? Owner).map(values) ?? []
        }
    }

    private init(name: String, isList: Bool, read: @escaping @Sendable (Responder) -> [Responder]) {
        self.name = name
        self.isList = isList
        self.read = read
    }

    /// The objects the property of `owner` holds now.
    func objects(of owner: Responder) -> [Responder] {
        read(owner)
    }
}
