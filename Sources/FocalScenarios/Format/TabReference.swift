/// Names a tab: by position (from 0) or by the screen it shows first.
enum TabReference: Sendable, Hashable, CustomStringConvertible {
    /// The tab at this position.
    case index(Int)
    /// The tab whose container shows this screen first.
    case screen(String)

    /// Reads a tab: a whole number or a screen name.
    init(_ value: ScenarioNode) throws(ScenarioError) {
        if let index = value.json.integerValue {
            guard index >= 0 else { throw value.error("a tab position must be zero or more, not \(index)") }
            self = .index(index)
        } else {
            guard value.isScalar, let name = try? value.nonEmptyString() else {
                throw value.mismatch("a tab position (0, 1 …) or the name of the screen a tab shows")
            }
            self = .screen(name)
        }
    }

    /// `tab 1` or `tab 'search'`.
    var description: String {
        switch self {
        case .index(let index): "tab \(index)"
        case .screen(let name): "tab '\(name)'"
        }
    }
}
