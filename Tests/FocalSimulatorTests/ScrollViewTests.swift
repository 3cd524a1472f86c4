import FocalJSON
import FocalSimulator
import Testing

@Suite struct ScrollViewTests {
    private final class Delegate: ScrollViewDelegate {
        var log: [String] = []
        func scrollViewWillBeginDragging(_ scrollView: ScrollView) { log.append("willBegin tracking=\(scrollView.isTracking)") }
        func scrollViewDidScroll(_ scrollView: ScrollView) { log.append("didScroll \(scrollView.contentOffset.y)") }
        func scrollViewDidEndDragging(_ scrollView: ScrollView) { log.append("didEnd tracking=\(scrollView.isTracking)") }
    }

    private func makeScene() -> (Harness, ScrollView, View) {
        let root = ViewController()
        let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        scrollView.contentSize = Size(width: 300, height: 1000)
        let content = View(frame: Rect(x: 0, y: 500, width: 300, height: 100))
        scrollView.addSubview(content)
        root.view.addSubview(scrollView)
        return (Harness(root: root), scrollView, content)
    }

    @Test func aDragIsBracketedByBeginAndEndWithTrackingInBetween() throws {
        let (harness, scrollView, _) = makeScene()
        let delegate = Delegate()
        scrollView.delegate = delegate
        var trackingWhenBegan: Bool?
        let recorder = ResponderEventRecorder()
        recorder.record(scrollView, as: "scroll")
        var draggingWhileScrolling: [Bool] = []
        let token = scrollView.observeEvents { event in
            switch event {
            case .willBeginDragging: trackingWhenBegan = scrollView.isTracking
            case .didScroll: draggingWhileScrolling.append(scrollView.isDragging)
            default: break
            }
        }
        try harness.user.scroll(scrollView, by: Point(x: 0, y: 450))
        #expect(recorder.take() == ["scroll: willBeginDragging", "scroll: didScroll", "scroll: didScroll", "scroll: didEndDragging"])
        #expect(delegate.log == ["willBegin tracking=true", "didScroll 300.0", "didScroll 450.0", "didEnd tracking=false"])
        #expect(trackingWhenBegan == true)
        #expect(draggingWhileScrolling == [true, true])
        #expect(!scrollView.isDragging)
        #expect(!scrollView.isTracking)
        #expect(scrollView.contentOffset == Point(x: 0, y: 450))
        _ = token
    }

    @Test func dragsStopAtTheEdgesOfTheContent() throws {
        let (harness, scrollView, _) = makeScene()
        try harness.user.scroll(scrollView, by: Point(x: 50, y: 10_000))
        #expect(scrollView.contentOffset == Point(x: 0, y: 700))
        try harness.user.scroll(scrollView, by: Point(x: 0, y: -10_000))
        #expect(scrollView.contentOffset == .zero)
        #expect(scrollView.maximumContentOffset == Point(x: 0, y: 700))
    }

    @Test func contentScrolledIntoTheViewportBecomesVisible() throws {
        let (harness, scrollView, content) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(content, as: "content")
        #expect(!content.isVisibleOnScreen)
        try harness.user.scroll(scrollView, by: Point(x: 0, y: 250))
        #expect(content.isVisibleOnScreen)
        try harness.user.scroll(scrollView, by: Point(x: 0, y: 350))
        #expect(!content.isVisibleOnScreen)
        #expect(recorder.take() == ["content: visible(true)", "content: visible(false)"])
        #expect(content.frameInWindow == Rect(x: 0, y: -100, width: 300, height: 100))
    }

    @Test func contentOffsetIsObservableAndSettableWithoutDragEvents() {
        let (harness, scrollView, _) = makeScene()
        let recorder = ResponderEventRecorder()
        recorder.record(scrollView, as: "scroll")
        var offsets: [JSONValue] = []
        let token = scrollView.observe("contentOffset", initial: true) { offsets.append($0.newValue) }
        scrollView.contentOffset = Point(x: 0, y: 20)
        scrollView.bounds.origin = Point(x: 0, y: 30)
        #expect(recorder.take() == ["scroll: didScroll", "scroll: didScroll"])
        #expect(offsets == [Point.zero.jsonValue, Point(x: 0, y: 20).jsonValue, Point(x: 0, y: 30).jsonValue])
        _ = token
        withExtendedLifetime(harness) {}
    }

    @Test func disabledOrOffScreenScrollViewsCannotBeDragged() {
        let (harness, scrollView, _) = makeScene()
        scrollView.isScrollEnabled = false
        #expect(throws: UserActionError.notScrollable) { try harness.user.scroll(scrollView, by: Point(x: 0, y: 10)) }
        scrollView.isHidden = true
        #expect(throws: UserActionError.viewNotOnScreen) { try harness.user.scroll(scrollView, by: Point(x: 0, y: 10)) }
    }
}
