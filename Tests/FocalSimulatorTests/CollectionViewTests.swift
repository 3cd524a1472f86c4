import FocalSimulator
import Testing

@Suite struct CollectionViewTests {
    private final class Grid: CollectionViewDataSource, CollectionViewDelegate {
        var items = (0..<30).map { "item \($0)" }
        var selected: [IndexPath] = []
        var blocked: Set<IndexPath> = []

        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { items.count }

        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        }

        func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String? {
            items[indexPath.item]
        }

        func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
            !blocked.contains(indexPath)
        }

        func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {
            selected.append(indexPath)
        }
    }

    private func makeGrid() -> (Harness, CollectionView, Grid) {
        let root = ViewController()
        let grid = Grid()
        let collection = CollectionView(
            frame: Rect(x: 0, y: 0, width: 390, height: 300),
            layout: FlowLayout(itemSize: Size(width: 100, height: 100), lineSpacing: 10, interitemSpacing: 10))
        collection.register(forCellWithReuseIdentifier: "item") { CollectionViewCell() }
        collection.dataSource = grid
        collection.delegate = grid
        root.view.addSubview(collection)
        return (Harness(root: root), collection, grid)
    }

    @Test func itemsFlowIntoAsManyColumnsAsFit() {
        let (harness, collection, grid) = makeGrid()
        #expect(collection.indexPathsForVisibleItems == (0..<9).map { IndexPath(item: $0, section: 0) })
        #expect(collection.rectForItem(at: IndexPath(item: 4, section: 0)) == Rect(x: 110, y: 110, width: 100, height: 100))
        #expect(collection.contentSize == Size(width: 390, height: 10 * 110 - 10))
        #expect(collection.cellForItem(at: IndexPath(item: 0, section: 0))?.itemIdentifier == "item 0")
        withExtendedLifetime((grid, harness)) {}
    }

    @Test func scrollingALineBringsInTheNextLine() throws {
        let (harness, collection, grid) = makeGrid()
        try harness.user.scroll(collection, by: Point(x: 0, y: 110))
        #expect(collection.indexPathsForVisibleItems.first == IndexPath(item: 3, section: 0))
        #expect(collection.indexPathsForVisibleItems.last == IndexPath(item: 11, section: 0))
        withExtendedLifetime(grid) {}
    }

    @Test func tappingAnItemSelectsItUnlessTheDelegateRefuses() throws {
        let (harness, collection, grid) = makeGrid()
        grid.blocked = [IndexPath(item: 1, section: 0)]
        try harness.user.selectItem(at: IndexPath(item: 1, section: 0), in: collection)
        try harness.user.selectItem(at: IndexPath(item: 2, section: 0), in: collection)
        #expect(grid.selected == [IndexPath(item: 2, section: 0)])
        #expect(collection.indexPathsForSelectedItems == [IndexPath(item: 2, section: 0)])
    }

    @Test func changingTheLayoutRelaysTheItemsOut() {
        let (harness, collection, grid) = makeGrid()
        collection.layout.itemSize = Size(width: 190, height: 50)
        #expect(collection.rectForItem(at: IndexPath(item: 3, section: 0)) == Rect(x: 200, y: 60, width: 190, height: 50))
        #expect(collection.visibleCells.count == 10)
        withExtendedLifetime((grid, harness)) {}
    }
}
