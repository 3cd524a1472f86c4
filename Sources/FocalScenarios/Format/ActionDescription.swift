/// What tapping a control, pressing return in a text field or selecting a row does.
///
/// ```yaml
/// on-tap: {push: detail}                  # push a new instance of a screen on the navigation stack
/// on-tap: {present: settings}             # present a screen (or {navigation: …} / {tabs: …}) full screen
/// on-tap: {present: {navigation: compose}, style: over-full-screen}
/// on-tap: pop                             # go back one screen in the navigation stack
/// on-tap: dismiss                         # dismiss the presented screen
/// on-tap: {switch-tab: 1}                 # select a tab by position, or by the screen it shows
/// ```
enum ActionDescription: Sendable {
    /// Push a new instance of the screen.
    case push(String)
    /// Present a container modally.
    case present(ContainerDescription, fullScreen: Bool)
    /// Pop the top screen of the navigation stack.
    case pop
    /// Dismiss the presented container.
    case dismiss
    /// Select a tab.
    case switchTab(TabReference)

    /// Reads an action, checking that the screens it names exist.
    init(_ value: ScenarioNode, screens: Set<String>) throws(ScenarioError) {
        if value.isScalar {
            switch try value.string() {
            case "pop": self = .pop
            case "dismiss": self = .dismiss
            default: throw value.mismatch("an action: 'pop', 'dismiss', {push: SCREEN}, {present: SCREEN} or {switch-tab: TAB}")
            }
            return
        }
        let fields = try value.fields(allowed: ["push", "present", "style", "switch-tab"], in: "an action")
        let member = try fields.exactlyOne(of: ["push", "present", "switch-tab"])
        if let style = fields["style"], member.key != "present" {
            throw style.error("'style' goes with 'present' only")
        }
        switch member.key {
        case "push":
            self = .push(try ContainerDescription.screenName(member.value, screens: screens))
        case "present":
            var fullScreen = true
            if let style = fields["style"] {
                switch try style.string() {
                case "full-screen": fullScreen = true
                case "over-full-screen": fullScreen = false
                default: throw style.mismatch("'full-screen' or 'over-full-screen'")
                }
            }
            self = .present(try ContainerDescription(member.value, screens: screens), fullScreen: fullScreen)
        default:
            self = .switchTab(try TabReference(member.value))
        }
    }
}
