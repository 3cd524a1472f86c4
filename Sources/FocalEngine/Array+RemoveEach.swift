extension Array {
    /// Removes every element, last first, keeping the storage, as `removeAll(keepingCapacity: true)` does. Each
    /// element is destroyed by code made for its type: `removeAll` hands the elements to the runtime's
    /// generic destroy (`swift_arrayDestroy`), which walks the type's metadata for each one, ~70 instructions an
    /// event and more for a tuple. For the few elements of a node's history, values and results.
    @inline(__always)
    mutating func removeEach() {
        while !isEmpty { removeLast() }
    }
}
