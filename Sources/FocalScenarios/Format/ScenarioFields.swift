/// The members of a mapping in a scenario document, already checked against the keys the construct allows.
struct ScenarioFields {
    /// The mapping itself.
    let owner: ScenarioNode
    /// The members, in the order they were written.
    let members: [(key: String, value: ScenarioNode)]
    /// What the mapping describes, for messages (`a button`, `step 'scroll'`).
    let what: String

    /// The member named `key`, if present.
    subscript(key: String) -> ScenarioNode? {
        members.first { $0.key == key }?.value
    }

    /// The member named `key`.
    ///
    /// - Throws: when it is missing.
    func required(_ key: String) throws(ScenarioError) -> ScenarioNode {
        guard let value = self[key] else { throw owner.error("\(what) needs '\(key)'") }
        return value
    }

    /// The member named by exactly one of `keys`, and which one it is.
    ///
    /// - Throws: when none or several of them are present.
    func exactlyOne(of keys: [String]) throws(ScenarioError) -> (key: String, value: ScenarioNode) {
        let present = members.filter { keys.contains($0.key) }
        guard present.count == 1 else {
            let problem = present.isEmpty ? "needs" : "takes only one of"
            throw owner.error("\(what) \(problem) \(ScenarioNode.describeChoices(keys))")
        }
        return present[0]
    }

    /// Whether the mapping has a member named `key`.
    func has(_ key: String) -> Bool {
        self[key] != nil
    }
}
