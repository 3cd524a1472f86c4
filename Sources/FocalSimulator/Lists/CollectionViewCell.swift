/// An item of a ``CollectionView``: the simulator's `UICollectionViewCell`.
open class CollectionViewCell: ReusableCell {}
