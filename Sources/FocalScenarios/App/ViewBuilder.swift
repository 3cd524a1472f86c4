import FocalSimulator

/// Builds views from their descriptions for a screen: creates them, lays them out, wires their actions to the
/// screen and attaches their analyzers.
struct ViewBuilder {
    /// The screen the views belong to.
    unowned let controller: ScreenController

    /// The elements built so far whose analytics name other views, connected once everything is built.
    private let references = ReferenceList()

    /// The height of controls and labels that are stacked without a height.
    static let controlHeight = 44.0

    /// Builds `descriptions` into `scope` (a screen's root view or a cell's content view), then connects the
    /// references of the built views, and of `owner` (the screen or cell), to the views of `scope`.
    ///
    /// - Returns: the views, each with its description, in order.
    @discardableResult
    func build(
        _ descriptions: [ViewDescription], into scope: View, owner: (Responder, AnalyticsDescription)? = nil
    ) -> [(view: View, description: ViewDescription)] {
        let built = add(descriptions, to: scope)
        if let owner { references.note(owner.0, owner.1) }
        for (element, description) in references.items {
            controller.app.analytics.connect(element, description, in: scope)
        }
        return built
    }

    /// Builds `descriptions` into `container`, stacking those without a frame from the top.
    @discardableResult
    private func add(_ descriptions: [ViewDescription], to container: View) -> [(view: View, description: ViewDescription)] {
        var built: [(view: View, description: ViewDescription)] = []
        var top = 0.0
        for description in descriptions {
            let view = make(description, width: container.bounds.width)
            switch description.frame {
            case .fixed(let frame):
                view.frame = frame
            case .stacked, .stackedWithHeight:
                let height = stackedHeight(of: description, view: view, remaining: container.bounds.height - top)
                view.frame = Rect(x: 0, y: top, width: container.bounds.width, height: height)
                top += height
            }
            container.addSubview(view)
            controller.app.analytics.attach(to: view, description.analytics)
            if let identifier = description.identifier {
                controller.app.lifetimes.note(view: view, identifier: identifier, analyzer: controller.app.analytics.analyzer(of: view))
            }
            references.note(view, description.analytics)
            built.append((view, description))
        }
        return built
    }

    private func stackedHeight(of description: ViewDescription, view: View, remaining: Double) -> Double {
        if case .stackedWithHeight(let height) = description.frame { return height }
        switch description.kind {
        case .table, .collection: return max(remaining, 0)
        case .view: return view.subviews.map(\.frame.maxY).max() ?? 0
        default: return Self.controlHeight
        }
    }

    /// A new view for `description`, with its subviews, `width` wide until it is placed.
    private func make(_ description: ViewDescription, width: Double) -> View {
        let view: View
        switch description.kind {
        case .view:
            view = View(frame: Rect(x: 0, y: 0, width: width, height: 0))
            add(description.subviews, to: view)
        case .label:
            view = Label(text: description.text)
        case .button:
            view = Button(title: description.text)
        case .switch:
            view = Switch(isOn: description.isOn)
        case .slider:
            let range = description.sliderRange
            view = Slider(value: range.value, minimumValue: range.minimum, maximumValue: range.maximum)
        case .textField:
            view = TextField(text: description.text ?? "", placeholder: description.placeholder)
        case .table, .collection:
            let adapter = ListAdapter(description: description.list!, isTable: description.kind == .table, controller: controller)
            controller.retain(adapter)
            view = adapter.listView
        }
        view.accessibilityIdentifier = description.identifier
        view.isHidden = description.isHidden
        view.alpha = description.alpha
        view.isUserInteractionEnabled = description.isUserInteractionEnabled
        if let control = view as? Control {
            control.isEnabled = description.isEnabled
            wireActions(of: control, description)
        }
        return view
    }

    private func wireActions(of control: Control, _ description: ViewDescription) {
        let name = "\(description.kind.rawValue) '\(description.identifier ?? description.text ?? "")'"
        if let action = description.onTap {
            control.addAction(for: .touchUpInside) { [unowned controller] _ in
                controller.perform(action, trigger: "the tap on \(name)")
            }
        }
        if let action = description.onReturn {
            control.addAction(for: .editingDidEndOnExit) { [unowned controller] _ in
                controller.perform(action, trigger: "return in \(name)")
            }
        }
    }
}

/// The elements whose analytics name other views.
private final class ReferenceList {
    private(set) var items: [(Responder, AnalyticsDescription)] = []

    func note(_ element: Responder, _ description: AnalyticsDescription) {
        if !description.elementReferences.isEmpty { items.append((element, description)) }
    }
}
