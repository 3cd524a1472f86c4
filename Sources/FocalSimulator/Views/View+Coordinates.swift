extension View {
    /// Converts `point` from this view's coordinates to `view`'s, or to its window's (or root view's) when `view`
    /// is `nil`.
    public func convert(_ point: Point, to view: View?) -> Point {
        let rootPoint = convertToRoot(point)
        return view?.convertFromRoot(rootPoint) ?? rootPoint
    }

    /// Converts `point` from `view`'s coordinates (or its window's, when `view` is `nil`) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        convertFromRoot(view?.convertToRoot(point) ?? point)
    }

    /// Converts `rect` from this view's coordinates to `view`'s, or to its window's when `view` is `nil`.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// This view's bounds in its window's coordinates (or its root view's when it is not in a window).
    public var frameInWindow: Rect {
        convert(bounds, to: nil)
    }

    private func convertToRoot(_ point: Point) -> Point {
        var result = point
        var view = self
        while let superview = view.superview {
            result = result - view.boundsOrigin + view.frame.origin
            view = superview
        }
        return result
    }

    private func convertFromRoot(_ point: Point) -> Point {
        guard let superview else { return point }
        return superview.convertFromRoot(point) - frame.origin + boundsOrigin
    }
}
