/// Told about scrolling in a ``ScrollView``. Every method has a default implementation that does nothing.
///
/// Table and collection view delegates refine this protocol, so one delegate hears about both.
///
/// Models `UIScrollViewDelegate`.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// The user started dragging the content.
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The user stopped dragging the content.
    func scrollViewDidEndDragging(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndDragging(_ scrollView: ScrollView) {}
}
