extension ScriptError {
    /// JavaScriptCore's message for a name that is neither declared nor a global.
    private static let undeclaredPrefix = "Can't find variable: "

    /// The error with a hint when it is an assignment to an undeclared name (`count = 1` in a strict task file, a
    /// `ReferenceError`): what to do, as a write to the frozen global object says it. A read of an undeclared name
    /// (a typo) keeps its message. Needs the ``excerpt`` and ``column``: ``CompiledModules/locate(_:)`` adds it.
    func hintingUndeclaredAssignment() -> ScriptError {
        guard name == "ReferenceError", message.hasPrefix(Self.undeclaredPrefix), let excerpt, let column else { return self }
        let variable = String(message.dropFirst(Self.undeclaredPrefix.count))
        guard Self.assigns(variable, in: Array(excerpt.unicodeScalars), before: column - 1) else { return self }
        var error = self
        error.message +=
            " (task files are strict: an assignment does not declare a variable; declare it with `let \(variable)`, "
            + "and keep state between events in a top-level `let \(variable)` of the task file or of a module)"
        return error
    }

    /// Whether the last whole-word `variable` of `line` that starts at the index `end` or before (JavaScriptCore's
    /// column points into the assignment, after the name) is assigned: followed by `=` (not `==` or `=>`), a compound assignment
    /// or `++`/`--`, or preceded by `++`/`--`.
    private static func assigns(_ variable: String, in line: [Unicode.Scalar], before end: Int) -> Bool {
        let name = Array(variable.unicodeScalars)
        guard !name.isEmpty, name.count <= line.count else { return false }
        func isWordScalar(_ index: Int) -> Bool {
            guard line.indices.contains(index) else { return false }
            let scalar = line[index]
            return scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        let last = min(end, line.count - name.count)
        guard last >= 0,
            let start = stride(from: last, through: 0, by: -1).first(where: { start in
                line[start..<start + name.count].elementsEqual(name) && !isWordScalar(start - 1) && !isWordScalar(start + name.count)
            })
        else { return false }
        let after = String(String.UnicodeScalarView(line[(start + name.count)...].drop { $0 == " " || $0 == "\t" }))
        let before = String(String.UnicodeScalarView(line[..<start].reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
        if before.hasSuffix("++") || before.hasSuffix("--") || after.hasPrefix("++") || after.hasPrefix("--") { return true }
        if after.hasPrefix("=") { return !after.hasPrefix("==") && !after.hasPrefix("=>") }
        let compound = ["+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??="]
        return compound.contains { after.hasPrefix($0) }
    }
}
