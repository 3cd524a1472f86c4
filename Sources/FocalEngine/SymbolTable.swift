/// Interns node names as small integers, so matching compares integers, not strings.
struct SymbolTable {
    private var symbols: [String: Int32] = [:]

    mutating func symbol(for name: String) -> Int32 {
        if let symbol = symbols[name] { return symbol }
        let symbol = Int32(symbols.count)
        symbols[name] = symbol
        return symbol
    }
}
