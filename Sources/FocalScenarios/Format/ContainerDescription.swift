/// What a window shows or a presentation brings up: a screen, a screen in a navigation stack, or tabs.
///
/// ```yaml
/// root: master                          # a screen
/// root: {navigation: master}            # a navigation stack whose root is a screen
/// root: {tabs: [feed, {navigation: search}]}
/// ```
indirect enum ContainerDescription: Sendable {
    /// A screen.
    case screen(String)
    /// A navigation stack whose root is a screen.
    case navigation(root: String)
    /// A tab bar with one tab per container.
    case tabs([ContainerDescription])

    /// Reads a container, checking that the screens it names exist.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            self = .screen(try Self.screenName(value, screens: screens))
            return
        }
        let member = try value.fields(allowed: ["navigation", "tabs"], in: "a container")
            .exactlyOne(of: ["navigation", "tabs"])
        switch member.key {
        case "navigation":
            self = .navigation(root: try Self.screenName(member.value, screens: screens))
        default:
            var tabs: [ContainerDescription] = []
            for tab in try member.value.list() {
                tabs.append(try ContainerDescription(tab, screens: screens))
            }
            guard !tabs.isEmpty else { throw member.value.error("'tabs' needs at least one tab") }
            self = .tabs(tabs)
        }
    }

    /// The screen a tab shows first: the screen itself, or the root of its navigation stack.
    var rootScreen: String? {
        switch self {
        case .screen(let name), .navigation(let name): name
        case .tabs: nil
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
