import FocalSimulator

/// A custom container view controller, as apps write with UIKit's containment API: it adds each child with
/// `addChild`, places the child's view in its own view (stacked top to bottom, equal heights) and calls
/// `didMove(toParent:)`. Its children appear and disappear with it, as UIKit forwards appearance callbacks to the
/// children of a container that does not opt out.
final class StackedContainerController: ViewController {
    private let initialChildren: [ViewController]
    private let size: Size

    init(children: [ViewController], size: Size) {
        initialChildren = children
        self.size = size
        super.init()
    }

    override func loadView() {
        let root = View(frame: Rect(origin: .zero, size: size))
        view = root
        let height = size.height / Double(max(initialChildren.count, 1))
        for (position, child) in initialChildren.enumerated() {
            addChild(child)
            child.view.frame = Rect(x: 0, y: Double(position) * height, width: size.width, height: height)
            root.addSubview(child.view)
            child.didMove(toParent: self)
        }
    }
}
