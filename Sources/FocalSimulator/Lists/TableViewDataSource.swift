/// Provides a ``TableView``'s sections, rows and cells. Held weakly by the table.
///
/// Models `UITableViewDataSource`.
public protocol TableViewDataSource: AnyObject {
    /// The number of sections; 1 by default.
    func numberOfSections(in tableView: TableView) -> Int
    /// The number of rows in `section`.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The configured cell for the row at `indexPath`, usually from
    /// ``TableView/dequeueReusableCell(withIdentifier:for:)``.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// A stable identifier of the item shown at `indexPath` (diffable-data-source style), which the cell
    /// carries as ``ReusableCell/itemIdentifier`` so that observers can key by identity; `nil` by default.
    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String?
}

extension TableViewDataSource {
    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// No identifier.
    public func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? { nil }
}
