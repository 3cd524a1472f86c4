import FocalEngine
import FocalOpLog
import FocalScenarios
import Foundation

/// A scenario read from `text` as the file `file`.
func scenario(_ text: String, file: String = "test.yaml") throws -> Scenario {
    try Scenario(parsing: text, file: file)
}

/// The error reading `text` gives, or `nil` when it reads fine.
func parseError(_ text: String, file: String = "test.yaml") -> ScenarioError? {
    do {
        _ = try Scenario(parsing: text, file: file)
        return nil
    } catch {
        return error
    }
}

/// What playing a scenario produced: its ops as readable lines, and the step failure.
struct Played {
    /// The run (its application can be inspected).
    let run: ScenarioRun
    /// The ops, in order.
    let ops: [Op]
    /// The step that could not be done.
    let failure: ScenarioError?

    /// The ops as `register PATH`, `record PATH EVENT`, `deregister PATH` lines (`snapshot` alone).
    var trace: [String] {
        var paths: [NodeID: String] = [:]
        return ops.map { op in
            switch op {
            case .register(let registration):
                let parentPath = registration.parent.flatMap { paths[$0] } ?? ""
                let path = registration.parent == nil ? "" : parentPath + "/" + registration.name
                paths[registration.node] = path
                return "register \(path.isEmpty ? "/" : path)"
            case .record(let recording):
                return "record \(paths[recording.node] ?? "?") \(recording.event)"
            case .deregister(let deregistration):
                return "deregister \(paths[deregistration.node] ?? "?")"
            case .snapshot:
                return "snapshot"
            case .end:
                return "end"
            }
        }
    }

    /// The trace lines that contain `text`.
    func trace(containing text: String) -> [String] {
        trace.filter { $0.contains(text) }
    }
}

/// Plays the scenario `text` without tasks.
func play(_ text: String, file: String = "test.yaml") throws -> Played {
    var ops: [Op] = []
    let run = ScenarioRun(scenario: try scenario(text, file: file)) { ops.append($0) }
    do {
        try run.play()
        return Played(run: run, ops: ops, failure: nil)
    } catch {
        return Played(run: run, ops: ops, failure: error)
    }
}

/// An app with a navigation stack: `master` has a table of five rows (three on screen) that pushes `detail`,
/// which has a button; `views` are added to `master`'s views.
func masterDetail(journey: String, masterViews: String = "", expect: String = "") -> String {
    """
    app:
      root: {navigation: master}
      screens:
        master:
          analyzer: master
          views:
    \(masterViews)
            - table:
                id: fruits
                analyzer: tableView
                height: 132
                cell: cell
                rows: [Apples, Bananas, Cherries, Dates, Elderberries]
                on-select: {push: detail}
        detail:
          analyzer: detail
          views:
            - button: {title: Buy, id: buy, analyzer: button}
    journey:
    \(journey)
    \(expect)
    """
}
