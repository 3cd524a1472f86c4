import Testing

@testable import FocalSimulator

@Suite struct GeometryTests {
    @Test func rectContainsItsTopLeftEdgesButNotItsBottomRightEdges() {
        let rect = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(rect.contains(Point(x: 10, y: 20)))
        #expect(rect.contains(Point(x: 39.9, y: 59.9)))
        #expect(!rect.contains(Point(x: 40, y: 30)))
        #expect(!rect.contains(Point(x: 20, y: 60)))
        #expect(rect.center == Point(x: 25, y: 40))
    }

    @Test func rectanglesTouchingAlongAnEdgeDoNotOverlap() {
        let viewport = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(Rect(x: 0, y: 99, width: 100, height: 44).overlaps(viewport))
        #expect(!Rect(x: 0, y: 100, width: 100, height: 44).overlaps(viewport))
        #expect(!Rect(x: 0, y: -44, width: 100, height: 44).overlaps(viewport))
    }

    @Test func aZeroSizedRectangleOverlapsWhenItLiesInside() {
        let viewport = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(Rect.zero.overlaps(viewport))
        #expect(Rect(x: 50, y: 50, width: 0, height: 0).overlaps(viewport))
        #expect(!Rect(x: 100, y: 50, width: 0, height: 0).overlaps(viewport))
        #expect(!Rect(x: 0, y: 0, width: 0, height: 0).overlaps(.zero))
    }

    @Test func indexPathsOrderBySectionThenItem() {
        let paths = [IndexPath(row: 3, section: 1), IndexPath(row: 5, section: 0), IndexPath(item: 0, section: 1)]
        #expect(paths.sorted() == [IndexPath(row: 5, section: 0), IndexPath(row: 0, section: 1), IndexPath(row: 3, section: 1)])
        #expect(IndexPath(row: 2, section: 4).item == 2)
        #expect(IndexPath(row: 2, section: 4).description == "[4, 2]")
    }
}
