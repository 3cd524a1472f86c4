/// Hears about a ``CollectionView``'s display and selection; also its scroll view delegate. Held weakly (as the
/// collection view's ``ScrollView/delegate``). Every method has a default implementation.
///
/// Models `UICollectionViewDelegate`.
public protocol CollectionViewDelegate: ScrollViewDelegate {
    /// A cell is about to be displayed for the item at `indexPath`.
    func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath)
    /// A cell stopped being displayed for the item at `indexPath`.
    func collectionView(
        _ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath)
    /// The size of a section's header or footer (only the height counts: they are full width); the layout's
    /// ``FlowLayout/headerReferenceSize`` or ``FlowLayout/footerReferenceSize`` by default. Models
    /// `collectionView(_:layout:referenceSizeForHeaderInSection:)`.
    func collectionView(
        _ collectionView: CollectionView, referenceSizeForSupplementaryElementOfKind kind: SupplementaryKind,
        inSection section: Int
    ) -> Size
    /// A section's header or footer view is about to be displayed (`indexPath` has item 0).
    func collectionView(
        _ collectionView: CollectionView, willDisplaySupplementaryView view: View, forElementKind kind: SupplementaryKind,
        at indexPath: IndexPath)
    /// A section's header or footer view stopped being displayed (`indexPath` has item 0).
    func collectionView(
        _ collectionView: CollectionView, didEndDisplayingSupplementaryView view: View,
        forElementOfKind kind: SupplementaryKind, at indexPath: IndexPath)
    /// The user is about to select the item: return whether to allow it.
    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    /// The user selected the item at `indexPath`.
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath)
    /// The user is about to deselect the item: return whether to allow it.
    func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool
    /// The user deselected the item at `indexPath`.
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath)
}

extension CollectionViewDelegate {
    /// Does nothing.
    public func collectionView(
        _ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath
    ) {}
    /// Does nothing.
    public func collectionView(
        _ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath
    ) {}
    /// The layout's header or footer reference size.
    public func collectionView(
        _ collectionView: CollectionView, referenceSizeForSupplementaryElementOfKind kind: SupplementaryKind,
        inSection section: Int
    ) -> Size {
        kind == .header ? collectionView.layout.headerReferenceSize : collectionView.layout.footerReferenceSize
    }
    /// Does nothing.
    public func collectionView(
        _ collectionView: CollectionView, willDisplaySupplementaryView view: View, forElementKind kind: SupplementaryKind,
        at indexPath: IndexPath
    ) {}
    /// Does nothing.
    public func collectionView(
        _ collectionView: CollectionView, didEndDisplayingSupplementaryView view: View,
        forElementOfKind kind: SupplementaryKind, at indexPath: IndexPath
    ) {}
    /// Allows the selection.
    public func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    /// Does nothing.
    public func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    /// Allows the deselection.
    public func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
        true
    }
    /// Does nothing.
    public func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
}
