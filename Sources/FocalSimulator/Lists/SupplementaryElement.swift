/// Which supplementary view of a section: the section's header, above its items, or its footer, below them.
///
/// Models `UICollectionView.elementKindSectionHeader` / `elementKindSectionFooter` and a table's
/// `viewForHeaderInSection` / `viewForFooterInSection`.
public enum SupplementaryKind: String, Hashable, Sendable, CaseIterable {
    /// The section header.
    case header
    /// The section footer.
    case footer
}

/// One supplementary view's place in a list: its kind and its section.
///
/// Elements are ordered as they are laid out: by section, a header before its section's footer.
public struct SupplementaryElement: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Header or footer.
    public var kind: SupplementaryKind
    /// The section.
    public var section: Int

    /// The `kind` view of `section`.
    public init(_ kind: SupplementaryKind, section: Int) {
        self.kind = kind
        self.section = section
    }

    /// `header 2`, `footer 0`.
    public var description: String { "\(kind.rawValue) \(section)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.kind == .header ? 0 : 1) < (rhs.section, rhs.kind == .header ? 0 : 1)
    }
}
