import FocalAnalyzers
import FocalSimulator

/// What a scenario cell shows: the item's title in a label, and the cell template's views, whose texts are filled
/// from the item's values.
final class CellContent {
    private let title: Label
    private let templated: [(view: View, description: ViewDescription)]

    init(title: Label, templated: [(view: View, description: ViewDescription)]) {
        self.title = title
        self.templated = templated
    }

    /// Shows `item`: its title, and the template's texts with `{key}` placeholders filled in.
    func show(_ item: ItemDescription) {
        title.text = item.title
        for (view, description) in templated {
            guard let template = description.text else { continue }
            let text = item.fill(template)
            switch view {
            case let label as Label: label.text = text
            case let button as Button: button.title = text
            case let field as TextField: field.text = text
            default: break
            }
        }
    }
}

/// A cell of a scenario list, which shows its item through a ``CellContent``. Cells load the task file of the
/// namespace their description gives, and none otherwise.
protocol ScenarioCell: ReusableCell, AnalyzableObject {
    /// What the cell shows.
    var content: CellContent? { get }
}

/// A table cell of a scenario list.
final class ScenarioTableCell: TableViewCell, ScenarioCell {
    static var analyticsNamespace: String? { nil }
    var content: CellContent?
}

/// A collection cell of a scenario list: it shows the item's title in a label filling the cell.
final class ScenarioCollectionCell: CollectionViewCell, ScenarioCell {
    static var analyticsNamespace: String? { nil }
    var content: CellContent?
}
