import FocalSimulator

/// Names the sections of a table or collection view in the focus-path tree. Adopt it in the list's data source
/// or delegate (asked in that order, whenever a section is first needed and after each reload).
///
/// A *named* section gets a node of its own under the list, with the section number as index, and its rows go
/// under it: `/…/tableView/<section name>/<row name>`. It appears while one of its cells is visible on screen.
/// An *unnamed* section (`nil`) gets no node: its rows go straight under the list, and carry their section in
/// their `section` attribute.
public protocol AnalyticsSectionNaming: AnyObject {
    /// The node name of `section` of `list`, or `nil` to leave the section unnamed.
    func analyticsName(forSection section: Int, in list: ListView) -> String?
}

extension ListView {
    /// The analytics name of `section`, from the data source or delegate that adopts ``AnalyticsSectionNaming``.
    func analyticsName(forSection section: Int) -> String? {
        let dataSource: AnyObject? = (self as? TableView)?.dataSource ?? (self as? CollectionView)?.dataSource
        let naming = (dataSource as? AnalyticsSectionNaming) ?? (delegate as? AnalyticsSectionNaming)
        return naming?.analyticsName(forSection: section, in: self)
    }
}
