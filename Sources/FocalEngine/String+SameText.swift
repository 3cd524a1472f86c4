extension String {
    /// Whether the two strings are equal, their UTF-8 lengths compared first: short names (event names, key paths,
    /// node names) of different lengths are told apart without `==`, which compares two strings that are not the same
    /// bits through the standard library's slower path. Used where a few names are searched in order instead of
    /// hashed.
    @inline(__always)
    func hasSameText(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}
