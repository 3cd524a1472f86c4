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
}

extension CollectionViewDataSource {
    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    /// No identifier.
    public func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String? {
        nil
    }
}
