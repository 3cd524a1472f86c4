import FocalAnalyzers
import FocalSimulator
import Testing

/// A grid of items with identifiers, whose cells are enabled as `tile`.
private final class Tiles: CollectionViewDataSource {
    var items = (0..<12).map { "tile\($0)" }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { items.count }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "tile", for: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String? {
        items[indexPath.item]
    }
}

@Suite struct CollectionViewTests {
    @Test func itemsAreRowsKeyedByIdentityUnderTheGrid() throws {
        let tiles = Tiles()
        let grid = CollectionView(frame: Rect(x: 0, y: 0, width: 390, height: 300))
        let harness = Harness { session in
            let screen = NamedController(session: session, name: "gallery")
            grid.register(forCellWithReuseIdentifier: "tile") {
                let cell = CollectionViewCell(frame: .zero)
                session.analyzer(for: cell).enable(naming: "tile")
                return cell
            }
            grid.dataSource = tiles
            screen.view.addSubview(grid)
            screen.analyzer.setSubAnalyzer(session.analyzer(for: grid), for: "grid")
            return screen
        }
        let first = try #require(harness.recorder.registrations.first { $0.name == "tile" })
        #expect(first.node.keys == ["tile0"])
        #expect(harness.recorder.path(of: first.node) == "/gallery/grid/tile")
        #expect(harness.takeTrail().contains("/gallery/grid/tile ana-appeared"))
        let cell = try #require(grid.cellForItem(at: IndexPath(item: 1, section: 0)))
        try harness.user.tap(cell)
        #expect(harness.takeTrail() == ["/gallery/grid/tile did-select"])
    }
}
