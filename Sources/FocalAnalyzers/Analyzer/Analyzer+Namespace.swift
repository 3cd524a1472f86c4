import FocalSimulator

extension Analyzer {
    /// The namespace an object's type gives its node: the type's declaration when it is an
    /// ``AnalyzableObject``, its name for the app's own types, none for the simulator's types.
    static func defaultNamespace(of object: Responder) -> String? {
        let type = type(of: object)
        if let declaring = type as? AnalyzableObject.Type { return declaring.analyticsNamespace }
        guard !String(reflecting: type).hasPrefix("FocalSimulator.") else { return nil }
        return namespace(forTypeName: String(describing: type))
    }

    /// `name` when it can be a namespace on its own (letters, digits and `_`), otherwise `nil`: local and
    /// generic types have names such as `Cell #1 in test()` or `Box<Int>` that make no file name.
    static func namespace(forTypeName name: String) -> String? {
        let isPlain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            }
        return isPlain ? name : nil
    }
}
