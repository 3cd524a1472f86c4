extension PathPattern: ExpressibleByStringLiteral {
    /// A pattern written in code, such as `"/master/tableView/cell"`; an invalid literal is a programming error and
    /// stops the program with the reason. Patterns from input go through ``init(_:)``, which throws.
    public init(stringLiteral text: String) {
        do { try self.init(text) } catch { preconditionFailure("\(error)") }
    }
}

extension TaskPattern: ExpressibleByStringLiteral {
    /// A pattern written in code, such as `"cell/did-select"`; an invalid literal is a programming error and stops
    /// the program with the reason. Patterns from input go through ``init(_:)``, which throws.
    public init(stringLiteral text: String) {
        do { try self.init(text) } catch { preconditionFailure("\(error)") }
    }
}
