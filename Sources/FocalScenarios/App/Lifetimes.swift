import FocalAnalyzers
import FocalSimulator

/// The screens and identified views the app built, held weakly, so that a journey can check that they (and their
/// analyzers) were released: what Anna's memory tests assert, and what an `expect-released:` step checks.
///
/// The registry forgets an element once it and its analyzer are gone; at most ``limit`` live elements are
/// followed (the oldest are forgotten beyond that, and the check says so).
final class Lifetimes {
    /// The most elements followed at once, a guard for apps that build views without end.
    static let limit = 100_000

    private struct Entry {
        /// `screen 'detail'` or `view 'photos'`.
        var description: String
        /// The screen's name or the view's identifier.
        var name: String
        var element: Weak<Responder>
        var analyzer: Weak<Analyzer>

        var isReleased: Bool { element.object == nil && analyzer.object == nil }
    }

    /// The screens the app describes (released, trivially, before they are ever pushed).
    private let screenNames: Set<String>
    private var entries: [Entry] = []
    /// The names of the elements built so far, released or not.
    private var builtNames: Set<String> = []
    /// How many live entries were forgotten because of ``limit``.
    private var forgotten = 0

    /// A registry for an app describing the screens `screenNames`.
    init(screenNames: Set<String>) {
        self.screenNames = screenNames
    }

    /// Follows the screen `name`'s instance `controller`, with its analyzer if it has one.
    func note(screen controller: ViewController, named name: String, analyzer: Analyzer?) {
        add(Entry(description: "screen '\(name)'", name: name, element: Weak(controller), analyzer: Weak(analyzer)))
    }

    /// Follows the view with the identifier `identifier`, with its analyzer if it has one.
    func note(view: View, identifier: String, analyzer: Analyzer?) {
        add(Entry(description: "view '\(identifier)'", name: identifier, element: Weak(view), analyzer: Weak(analyzer)))
    }

    private func add(_ entry: Entry) {
        builtNames.insert(entry.name)
        if entries.count >= Self.limit {
            entries.removeAll(where: \.isReleased)
            if entries.count >= Self.limit {
                entries.removeFirst()
                forgotten += 1
            }
        }
        entries.append(entry)
    }

    /// Checks that every screen named, and every view identified, by `names` that the app built is released, with
    /// its analyzer.
    ///
    /// - Throws: a failure listing what is still alive, or naming what the app never built.
    func checkReleased(_ names: [String]) throws(StepFailure) {
        entries.removeAll(where: \.isReleased)
        let unknown = names.filter { !builtNames.contains($0) && !screenNames.contains($0) }
        if !unknown.isEmpty {
            throw StepFailure(
                "no screen is named, and no view built so far has the id, \(ScenarioNode.describeChoices(unknown)); expected a screen's name or a view's 'id'"
            )
        }
        var alive: [String] = []
        for name in names {
            for entry in entries where entry.name == name {
                switch (entry.element.object != nil, entry.analyzer.object != nil) {
                case (true, true): alive.append("\(entry.description) and its analyzer are still alive")
                case (true, false): alive.append("\(entry.description) is still alive")
                default: alive.append("the analyzer of \(entry.description) is still alive (its object is gone)")
                }
            }
        }
        guard alive.isEmpty else {
            let note = forgotten > 0 ? " (\(forgotten) older elements were not followed, beyond \(Self.limit))" : ""
            throw StepFailure(alive.joined(separator: "; ") + note)
        }
    }
}
