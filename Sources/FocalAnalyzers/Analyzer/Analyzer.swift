import FocalJSON
import FocalOpLog
import FocalSimulator

/// The analytics side of one simulated object (a view, control, cell, list or view controller): it places a
/// node for the object in the focus-path tree and records what happens to the object on that node.
///
/// Get an object's analyzer with ``AnalyticsSession/analyzer(for:)``; it lives as long as the object. An
/// analyzer does nothing until it is *enabled*, in one of two ways:
/// - ``enable(naming:)``: the node is named by the app and its parent is found through the responder chain
///   (view → superview → view controller → container…), following focus: a screen opened by a tap on a row is
///   placed under that row (`/master/tableView/cell/detail`). A cell enabled this way becomes the node of the row
///   it displays, kept across cell reuse.
/// - as a sub-analyzer of another analyzer (``setSubAnalyzer(_:for:)``, ``setSubAnalyzers(_:for:)``, or the
///   keys its object's type declares through ``AnalyzableObject``): the node is named by the key.
///
/// Once enabled, the analyzer records automatically, through the simulator's events:
/// - `ana-appeared` / `ana-disappeared` when a view really becomes visible or invisible (in a shown window, not
///   hidden or transparent up the tree, inside every clipping ancestor such as a scrolled list), and when a view
///   controller appears or disappears;
/// - a control's events under their kebab-case names (`touch-up-inside`, `value-changed`,
///   ``AnalyticsConfiguration/recordedControlEvents``); a tap (touch-up-inside) also marks focus;
/// - `did-select` / `did-deselect` on the row of a cell the user selects (marking focus) or deselects;
/// - `did-begin-scrolling` when the user starts dragging a scroll view, `did-become-first-responder` and
///   `did-resign-first-responder` (see ``AutomaticEvent``).
///
/// Events that happen before the node can be registered (the parent is not known yet, the cell is between
/// rows) wait, in order, and are recorded as soon as it is; at most
/// ``AnalyticsConfiguration/pendingEventLimit`` wait, the oldest are dropped and reported beyond that.
public final class Analyzer {
    weak var session: AnalyticsSession?
    /// The number in the ids of the nodes this analyzer owns.
    let owner: Int64
    /// Where the node goes; `nil` while the analyzer is not enabled.
    var placement: Placement?
    /// The node registered for the current placement.
    var binding: Binding?
    var pending = PendingEvents()
    /// The object that the latest focus mark passing through this analyzer designates.
    var focusedObject = Weak<Responder>(nil)
    /// The hook that reports the analyzed object's own events.
    var ownHook: Hook?
    var hooks: [Hook] = []
    var observations: [KeyPathObservation] = []
    /// What the app runs when the analyzer's node is created (see ``onNodeCreated(_:)``).
    var creationHandlers: [(Analyzer) -> Void] = []
    /// The analyzer that focus marks set on this one go to (see ``redirectFocus(to:)``).
    var focusTarget = Weak<Analyzer>(nil)
    /// The sub-analyzers set for each key (owned by their objects).
    var subAnalyzers: [String: [Weak<Analyzer>]] = [:]
    /// Sections and rows, when the object is a table or collection view.
    var listTracker: ListTracker?

    /// The analyzed object; `nil` for the root, or once the object is gone.
    public private(set) weak var object: Responder?

    /// The namespace sent with the node's registration, which makes the engine load the task file `A/B.js` for
    /// `A.B`. When not set, it comes from the object's type: ``AnalyzableObject/analyticsNamespace`` if the type
    /// declares it, otherwise the type's name for the app's own types (not for the simulator's, such as `Button`).
    /// Set it before the node is registered.
    public var namespace: String? {
        get { explicitNamespace ?? typeNamespace }
        set { explicitNamespace = newValue }
    }
    private var explicitNamespace: String?
    /// The namespace the object's type gives, worked out once.
    private lazy var typeNamespace: String? = object.flatMap(Analyzer.defaultNamespace(of:))

    init(session: AnalyticsSession, owner: Int64, object: Responder?, placement: Placement? = nil) {
        self.session = session
        self.owner = owner
        self.object = object
        self.placement = placement
    }

    deinit {
        if let binding, binding.isOwned {
            session?.deregister(binding.id)
        }
    }

    /// Whether the analyzer is enabled (named, or a sub-analyzer).
    public var isEnabled: Bool { placement != nil }

    /// The name of the node: the name given to ``enable(naming:)``, the key of a sub-analyzer, the root's name.
    public var name: String? {
        switch placement {
        case .root: session?.configuration.rootName
        case .standalone(let name): name
        case .sub(_, let key, _): key
        case nil: nil
        }
    }

    /// The id of the node the analyzer records on, if it is registered and still in the tree.
    public var nodeID: NodeID? {
        guard let binding, session?.nodes.contains(binding.id) ?? false else { return nil }
        return binding.id
    }

    /// The number of events waiting for the node to be registered.
    public var pendingEventCount: Int { pending.count }

    // MARK: Enabling

    /// Enables the analyzer under the name `name`; its parent is found through the responder chain.
    ///
    /// Calling it again with another name moves the analyzer to a new node (the old one is removed); after
    /// ``disable()`` or ``detach()`` it enables the analyzer again.
    public func enable(naming name: String) {
        activate(.standalone(name: name))
    }

    /// Stops the analyzer: removes its node (and everything under it), stops its automatic events and forgets
    /// its waiting events. It can be enabled again.
    public func disable() {
        detach()
        unbind()
        placement = nil
        pending.removeAll()
    }

    /// Stops every automatic event, hook and observation; the node stays, and ``record(_:properties:)`` and
    /// ``update(_:for:)`` still work.
    public func detach() {
        ownHook = nil
        hooks = []
        observations = []
        listTracker?.stopObserving()
    }

    /// Places the analyzer, (re)starts its automatic events, and registers its node if it can already.
    func activate(_ newPlacement: Placement) {
        if placement != newPlacement {
            unbind()
            placement = newPlacement
        }
        if let list = object as? ListView {
            listTracker = listTracker ?? ListTracker(list: list, analyzer: self)
            listTracker?.startObserving()
        }
        if let object, ownHook == nil {
            ownHook = Hook(target: object, analyzer: self, importsVisibility: true)
        }
        refreshSubAnalyzers()
        resolve()
    }

    // MARK: Recording

    /// Records the event `event` with `properties` on the node (as soon as it is registered).
    public func record(_ event: String, properties: JSONObject = JSONObject()) {
        guard let session else { return }
        let time = session.now
        if let id = resolve() {
            session.record(event, properties: properties, time: time, on: id)
        } else {
            session.noteWaiting(self)
            let event = PendingEvent(name: event, properties: properties, time: time)
            if let dropped = pending.append(event, limit: session.configuration.pendingEventLimit) {
                session.reportDroppedEvent(dropped.name, analyzer: displayName)
            }
        }
    }

    /// Records `ana-updated` for `keyPath` with `value` (no `value` property when `nil`): the engine keeps it as
    /// the node's current value for the key path, and knows whether it was on screen.
    public func update(_ value: JSONValue?, for keyPath: String) {
        var properties: JSONObject = [SpecialEvent.keyPath: .string(keyPath)]
        if let value { properties[SpecialEvent.value] = value }
        record(SpecialEvent.updated, properties: properties)
    }

    /// Records the value of `object`'s property at `keyPath` now and after every change, as
    /// ``update(_:for:)`` does, under the key path `valueKey` (by default `keyPath` itself).
    ///
    /// `object` is the analyzed object, another element (a switch elsewhere on the screen whose state this node
    /// should carry) or an app model object (any `KeyValueObservable`), as KVO observes any object in UIKit.
    /// `keyPath` is a property name (`"text"`) or a dotted path through stored properties holding observable
    /// objects (`"textLabel.text"`); the objects on the way are looked up once, now. The observation holds
    /// `object` weakly and ends with ``detach()``.
    public func observe(_ object: KeyValueObservable, keyPath: String, as valueKey: String? = nil) {
        let key = valueKey ?? keyPath
        observations.append(
            KeyPathObservation(object: object, keyPath: keyPath) { [weak self] value in
                self?.update(value, for: key)
            })
    }

    /// Runs `handler` each time this analyzer's node is created: when the analyzer is first placed, after its
    /// node was removed, and, for a cell or a view inside one, for each row whose node its placement creates
    /// (not when it comes back to a row that already has a node). This is the place for what an app does once
    /// per node, such as reporting values that never change. `handler` runs after the node's waiting events
    /// were recorded, and may record and update.
    public func onNodeCreated(_ handler: @escaping (Analyzer) -> Void) {
        creationHandlers.append(handler)
    }

    /// Sends the focus marks set on this analyzer (``markFocused()``, a tap, a selection) to `target`
    /// instead, or stops doing so with `nil`: a section header that stands for its section, a button that
    /// stands for the card around it. A screen opened next is then placed under `target`'s node.
    public func redirectFocus(to target: Analyzer?) {
        focusTarget = Weak(target)
    }

    /// Records the events of `responder` on this analyzer's node: control events, first-responder and
    /// scrolling events, and, only when `importingVisibility` is `true`, its appearing and disappearing.
    ///
    /// Hooking lets a component without a node of its own (a button inside a composite view) report on the node
    /// of the component it belongs to, without making that node appear and disappear with it.
    public func hook(_ responder: Responder, importingVisibility: Bool = false) {
        hooks.append(Hook(target: responder, analyzer: self, importsVisibility: importingVisibility))
    }

    /// A name for diagnostics.
    var displayName: String {
        name ?? object.map { String(describing: type(of: $0)) } ?? "analyzer \(owner)"
    }
}
