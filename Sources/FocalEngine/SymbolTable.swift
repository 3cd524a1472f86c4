/// Interns node names as small integers, so matching compares integers, not strings.
struct SymbolTable {
    private var symbols: [String: Int32] = [:]
    private(set) var names: [String] = []

    mutating func symbol(for name: String) -> Int32 {
        if let symbol = symbols[name] { return symbol }
        let symbol = Int32(names.count)
        symbols[name] = symbol
        names.append(name)
        return symbol
    }

    func existingSymbol(for name: String) -> Int32? { symbols[name] }
}
