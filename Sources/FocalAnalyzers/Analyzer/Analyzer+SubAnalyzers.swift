import FocalSimulator

extension Analyzer {
    /// Enables `sub` under this analyzer, named `key`, in place of the sub-analyzers previously set for `key`
    /// (whose nodes are removed); `nil` only removes them.
    public func setSubAnalyzer(_ sub: Analyzer?, for key: String) {
        replaceSubAnalyzers(for: key, with: sub.map { [$0] } ?? [], indexed: false)
    }

    /// Enables each analyzer of `subs` under this analyzer, named `key`, with its position as index, in place
    /// of the sub-analyzers previously set for `key`.
    public func setSubAnalyzers(_ subs: [Analyzer], for key: String) {
        replaceSubAnalyzers(for: key, with: subs, indexed: true)
    }

    /// Reads the properties the object's type declares in ``AnalyzableObject/subAnalyzableKeys`` again and
    /// updates the sub-analyzers; call it after assigning such a property.
    public func refreshSubAnalyzers() {
        guard isEnabled, let session, let object, let type = type(of: object) as? AnalyzableObject.Type else { return }
        for key in type.subAnalyzableKeys {
            let subs = key.objects(of: object).map { session.analyzer(for: $0) }
            let current = subAnalyzers[key.name] ?? []
            guard subs.count != current.count || zip(subs, current).contains(where: { $0 !== $1.object }) else { continue }
            replaceSubAnalyzers(for: key.name, with: subs, indexed: key.isList)
        }
    }

    private func replaceSubAnalyzers(for key: String, with subs: [Analyzer], indexed: Bool) {
        for old in (subAnalyzers[key] ?? []).compactMap(\.object) where !subs.contains(where: { $0 === old }) {
            old.disable()
        }
        subAnalyzers[key] = subs.isEmpty ? nil : subs.map { Weak($0) }
        for (position, sub) in subs.enumerated() where sub !== self {
            sub.activate(.sub(parent: Weak(self), key: key, index: indexed ? position : nil))
        }
    }
}
