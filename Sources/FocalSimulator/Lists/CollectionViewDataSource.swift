/// Provides a ``CollectionView``'s sections, items and cells. Held weakly by the collection view.
///
/// Models `UICollectionViewDataSource`.
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections; 1 by default.
    func numberOfSections(in collectionView: CollectionView) -> Int
    /// The number of items in `section`.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The configured cell for the item at `indexPath`, usually from
    /// ``CollectionView/dequeueReusableCell(withReuseIdentifier:for:)``.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
    /// A stable identifier of the item at `indexPath`, which the cell carries as
    /// ``ReusableCell/itemIdentifier``; `nil` by default.
    func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String?
    /// The header or footer view of the section of `indexPath` (whose item is 0), asked for when it (having a height
    /// in the layout) enters the viewport; `nil` by default, which leaves its space empty.
    func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind, at indexPath: IndexPath
    ) -> View?
}

extension CollectionViewDataSource {
    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    /// No identifier.
    public func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String? {
        nil
    }
    /// No view.
    public func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind, at indexPath: IndexPath
    ) -> View? {
        nil
    }
}
