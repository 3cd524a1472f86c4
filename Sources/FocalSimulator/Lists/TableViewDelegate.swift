/// Sizes a ``TableView``'s rows and hears about display and selection; also its scroll view delegate. Held weakly
/// (as the table's ``ScrollView/delegate``). Every method has a default implementation.
///
/// Models `UITableViewDelegate`: `willDisplay` is called after `cellForRowAt` configured the cell, `didEndDisplaying`
/// after the cell left the screen, as in current iOS. Section headers and footers come from the delegate, as
/// `viewForHeaderInSection` does; the table has no title-only headers (`titleForHeaderInSection`).
public protocol TableViewDelegate: ScrollViewDelegate {
    /// The height of the row at `indexPath`; the table's ``TableView/rowHeight`` by default.
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double
    /// A cell is about to be displayed for the row at `indexPath`.
    func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath)
    /// A cell stopped being displayed for the row at `indexPath`.
    func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath)
    /// The height of the header of `section`; the table's ``TableView/sectionHeaderHeight`` by default.
    func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double
    /// The height of the footer of `section`; the table's ``TableView/sectionFooterHeight`` by default.
    func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double
    /// The header view of `section`, asked for when the header (which has a height) enters the viewport; `nil` by
    /// default, which leaves the header's space empty.
    func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View?
    /// The footer view of `section`, asked for when the footer enters the viewport; `nil` by default.
    func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View?
    /// The header view of `section` is about to be displayed.
    func tableView(_ tableView: TableView, willDisplayHeaderView view: View, forSection section: Int)
    /// The footer view of `section` is about to be displayed.
    func tableView(_ tableView: TableView, willDisplayFooterView view: View, forSection section: Int)
    /// The header view of `section` stopped being displayed.
    func tableView(_ tableView: TableView, didEndDisplayingHeaderView view: View, forSection section: Int)
    /// The footer view of `section` stopped being displayed.
    func tableView(_ tableView: TableView, didEndDisplayingFooterView view: View, forSection section: Int)
    /// The user is about to select the row at `indexPath`: return it, another row to select instead, or `nil` to
    /// prevent the selection.
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// The user selected the row at `indexPath`.
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
    /// The row at `indexPath` is about to be deselected by the user: return it, or `nil` to keep it selected.
    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath?
    /// The user deselected the row at `indexPath`.
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath)
}

extension TableViewDelegate {
    /// The table's row height.
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { tableView.rowHeight }
    /// Does nothing.
    public func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {}
    /// Does nothing.
    public func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {}
    /// The table's section header height.
    public func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double {
        tableView.sectionHeaderHeight
    }
    /// The table's section footer height.
    public func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double {
        tableView.sectionFooterHeight
    }
    /// No view.
    public func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? { nil }
    /// No view.
    public func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View? { nil }
    /// Does nothing.
    public func tableView(_ tableView: TableView, willDisplayHeaderView view: View, forSection section: Int) {}
    /// Does nothing.
    public func tableView(_ tableView: TableView, willDisplayFooterView view: View, forSection section: Int) {}
    /// Does nothing.
    public func tableView(_ tableView: TableView, didEndDisplayingHeaderView view: View, forSection section: Int) {}
    /// Does nothing.
    public func tableView(_ tableView: TableView, didEndDisplayingFooterView view: View, forSection section: Int) {}
    /// Allows the selection.
    public func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Does nothing.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    /// Allows the deselection.
    public func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Does nothing.
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
}
