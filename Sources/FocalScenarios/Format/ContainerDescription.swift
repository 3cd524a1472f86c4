/// What a window shows or a presentation brings up: a screen, or a container of screens that may carry an
/// analyzer and nest at any depth.
///
/// ```yaml
/// root: master                                          # a screen
/// root: {navigation: master}                            # a navigation stack whose root is a screen
/// root: {navigation: {tabs: [feed, search]}, analyzer: nav}    # tabs pushed in a navigation stack
/// root: {tabs: [feed, {navigation: search}], analyzer: tabs}   # a navigation stack inside a tab
/// root: {container: [player, {navigation: queue}], analyzer: shell}  # a custom container, children stacked
/// ```
///
/// A container with an `analyzer` gets a node, so that paths read `/nav/tabs/feed/…`; one without is not in the
/// focus-path tree and its children go under whatever is above it.
struct ContainerDescription: Sendable {
    /// The kinds of container.
    indirect enum Kind: Sendable {
        /// A screen.
        case screen(String)
        /// A navigation controller whose root is a container (usually a screen).
        case navigation(root: ContainerDescription)
        /// A tab bar controller with one tab per container.
        case tabs([ContainerDescription])
        /// A custom container controller showing every child, stacked top to bottom with equal heights.
        case custom([ContainerDescription])
    }

    /// What it is.
    var kind: Kind
    /// The container's analyzer (a screen's own analyzer is in its screen description).
    var analytics = AnalyticsDescription.none

    /// The keys of a container written as a mapping.
    private static let kinds = ["navigation", "tabs", "container"]

    /// A container of `kind` without analyzer.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Reads a container, checking that the screens it names exist.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            kind = .screen(try Self.screenName(value, screens: screens))
            return
        }
        let fields = try value.fields(allowed: Self.kinds + AnalyticsDescription.keys, in: "a container")
        let member = try fields.exactlyOne(of: Self.kinds)
        analytics = try AnalyticsDescription(fields)
        switch member.key {
        case "navigation":
            kind = .navigation(root: try ContainerDescription(member.value, screens: screens))
        default:
            var children: [ContainerDescription] = []
            for child in try member.value.list() {
                children.append(try ContainerDescription(child, screens: screens))
            }
            guard !children.isEmpty else { throw member.value.error("'\(member.key)' needs at least one child") }
            kind = member.key == "tabs" ? .tabs(children) : .custom(children)
        }
    }

    /// The screen the container shows first: the screen itself, or the first screen of its first child.
    var rootScreen: String {
        switch kind {
        case .screen(let name): name
        case .navigation(let root): root.rootScreen
        case .tabs(let children), .custom(let children): children[0].rootScreen
        }
    }

    /// Checks that the models the analytics of the container and of the containers in it name exist.
    func checkReferences(models: Set<String>) throws(ScenarioError) {
        try analytics.checkReferences(elements: [:], models: models)
        switch kind {
        case .screen: break
        case .navigation(let root): try root.checkReferences(models: models)
        case .tabs(let children), .custom(let children):
            for child in children { try child.checkReferences(models: models) }
        }
    }

    /// Reads the name of a screen declared under `screens:`.
    static func screenName(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) -> String {
        let name = try value.nonEmptyString()
        guard screens.contains(name) else {
            throw value.error("there is no screen named '\(name)'; expected \(ScenarioNode.describeChoices(screens.sorted()))")
        }
        return name
    }
}
