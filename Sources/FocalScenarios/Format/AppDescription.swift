import FocalJSON

/// The simulated app: its screens, its model objects and what the window shows at launch.
///
/// ```yaml
/// app:
///   root: {navigation: master}
///   models: {cart: {count: 0}}          # model objects whose properties elements can observe; 'set' changes them
///   screens:
///     master: {analyzer: master, views: [{table: {analyzer: tableView, rows: [A, B], cell: cell}}]}
///     detail: {analyzer: detail}
/// ```
struct AppDescription: Sendable {
    /// What the window shows at launch.
    var root: ContainerDescription
    /// The screens, by name.
    var screens: [String: ScreenDescription]
    /// The model objects, by name, with their properties' initial values.
    var models: [String: JSONObject] = [:]

    /// Reads `app:`.
    init(_ value: ScenarioNode) throws(ScenarioError) {
        let fields = try value.fields(allowed: ["root", "screens", "models"], in: "'app'")
        let screensNode = try fields.required("screens")
        guard let mapping = screensNode.node.mapping, !mapping.isEmpty else {
            throw screensNode.mismatch("a mapping of screens by name")
        }
        var names: Set<String> = []
        for key in mapping.keys {
            let name = try screensNode.child(key, role: "a screen name").nonEmptyString()
            guard !name.contains("/") else { throw screensNode.child(key, role: "").error("a screen name must not contain '/'") }
            names.insert(name)
        }
        screens = [:]
        for (key, screen) in mapping {
            let name = key.scalar?.string ?? ""
            screens[name] = try ScreenDescription(
                name: name, screensNode.child(screen, role: "screen '\(name)'"), screens: names)
        }
        if let modelsNode = fields["models"] {
            for (name, properties) in try modelsNode.object() {
                guard case .object(let object) = properties else {
                    throw modelsNode.error("model '\(name)' must be a mapping of its properties' initial values")
                }
                models[name] = object
            }
        }
        root = try ContainerDescription(fields.required("root"), screens: names)
        let modelNames = Set(models.keys)
        try root.checkReferences(models: modelNames)
        for name in screens.keys.sorted() {
            try screens[name]!.checkReferences(models: modelNames)
        }
    }
}
