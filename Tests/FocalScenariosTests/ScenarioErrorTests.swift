import FocalScenarios
import FocalTestSupport
import Foundation
import Testing

/// Every problem in a scenario file is reported with the file, the line and column, the step, and what was
/// expected.
@Suite struct ScenarioErrorTests {
    let app = """
        app:
          root: {navigation: home}
          screens:
            home:
              views:
                - button: {title: Go, id: go, on-tap: {push: detail}}
            detail: {}
        """

    @Test func namesFileLineAndColumnOfInvalidYAML() throws {
        let error = try #require(parseError("app: [unclosed\njourney: x\n", file: "bad.yaml"))
        #expect(error.file == "bad.yaml")
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("bad.yaml:"))
        #expect(error.message.contains("invalid YAML"))
    }

    @Test func namesInvalidJSONAsJSON() throws {
        let error = try #require(parseError(#"{"app": [1,}"#, file: "s.json"))
        #expect(error.line == 1)
        #expect(error.message.hasPrefix("invalid JSON: "))
    }

    @Test func rejectsDuplicateKeys() throws {
        let error = try #require(parseError("name: a\nname: b\n" + app + "\njourney: [launch]"))
        #expect(error.message.contains("'name' appears twice"))
    }

    @Test func rejectsAnEmptyFile() throws {
        let error = try #require(parseError("", file: "empty.yaml"))
        #expect(error.description == "empty.yaml: the file is empty; expected a scenario with 'app' and 'journey'")
    }

    @Test func namesUnknownKeysAndTheAllowedOnes() throws {
        let error = try #require(parseError(app + "\njourney: [launch]\nexpected: []"))
        #expect(error.line == 9)
        #expect(error.column == 1)
        #expect(error.message.hasPrefix("unknown key 'expected' in a scenario; expected 'name', 'tasks'"))
        #expect(error.message.contains("'expect'"))
    }

    @Test func namesMissingKeys() throws {
        let error = try #require(parseError("journey: [launch]"))
        #expect(error.message == "a scenario needs 'app'")
    }

    @Test func namesUnknownScreensWithTheKnownOnes() throws {
        let text = app.replacingOccurrences(of: "push: detail", with: "push: details") + "\njourney: [launch]"
        let error = try #require(parseError(text))
        #expect(error.line == 6)
        #expect(error.message == "there is no screen named 'details'; expected 'detail' or 'home'")
    }

    @Test func namesUnknownViewKinds() throws {
        let text = app.replacingOccurrences(of: "- button:", with: "- buton:") + "\njourney: [launch]"
        let error = try #require(parseError(text))
        #expect(error.line == 6)
        #expect(error.message.hasPrefix("unknown view kind 'buton'; expected 'view', 'label', 'button'"))
    }

    @Test func namesKeysThatDoNotBelongToTheViewKind() throws {
        let text = app.replacingOccurrences(of: "title: Go", with: "text: Go") + "\njourney: [launch]"
        let error = try #require(parseError(text))
        #expect(error.message.hasPrefix("unknown key 'text' in a button"))
    }

    @Test func namesValuesOfTheWrongType() throws {
        let text = app.replacingOccurrences(of: "title: Go,", with: "title: Go, hidden: maybe,") + "\njourney: [launch]"
        let error = try #require(parseError(text))
        #expect(error.message == "'hidden' must be true or false, not the text 'maybe'")
    }

    @Test func requiresAnAnalyzerForValues() throws {
        let text = app.replacingOccurrences(of: "title: Go,", with: "title: Go, values: {a: 1},") + "\njourney: [launch]"
        let error = try #require(parseError(text))
        #expect(error.message == "'values' needs an 'analyzer' to report to")
    }

    @Test func namesTheStepOfAnUnknownStepKind() throws {
        let error = try #require(parseError(app + "\njourney:\n  - launch\n  - tapp: go"))
        #expect(error.line == 10)
        #expect(error.message.hasPrefix("step 2: unknown step 'tapp'; expected 'launch', 'tap'"))
    }

    @Test func namesTheStepOfABadArgument() throws {
        let error = try #require(parseError(app + "\njourney:\n  - launch\n  - wait: soon"))
        #expect(error.step == StepLabel(number: 2, kind: "wait"))
        #expect(error.line == 10)
        #expect(error.description == "test.yaml:10:11: step 2 (wait): 'wait' must be a whole number, not the text 'soon'")
    }

    @Test func namesMissingAndConflictingStepKeys() throws {
        let missing = try #require(parseError(app + "\njourney:\n  - launch\n  - scroll: {in: list}"))
        #expect(missing.description.contains("step 2 (scroll): 'scroll' needs 'to-row', 'to-item' or 'by'"))
        let both = try #require(parseError(app + "\njourney:\n  - launch\n  - select: {row: 1, item: 2}"))
        #expect(both.message == "'select' takes only one of 'row' or 'item'")
        let noArgument = try #require(parseError(app + "\njourney:\n  - launch\n  - tap"))
        #expect(noArgument.message == "'tap' needs an argument, as in '- tap: …'")
        let extra = try #require(parseError(app + "\njourney:\n  - launch\n  - back: 2"))
        #expect(extra.message == "'back' takes no argument; write '- back'")
    }

    @Test func requiresLaunchFirstAndOnce() throws {
        let late = try #require(parseError(app + "\njourney:\n  - tap: go\n  - launch"))
        #expect(late.description.contains("step 1 (tap): the journey must start with '- launch'"))
        let twice = try #require(parseError(app + "\njourney:\n  - launch\n  - launch"))
        #expect(twice.description.contains("step 2 (launch): the app is launched once, by the first step"))
        let empty = try #require(parseError(app + "\njourney: []"))
        #expect(empty.message == "'journey' needs at least the step '- launch'")
    }

    @Test func namesUnreadableFiles() throws {
        #expect(throws: ScenarioError.self) { try Scenario.load(contentsOf: "/nonexistent/scenario.yaml") }
        do {
            _ = try Scenario.load(contentsOf: "/nonexistent/scenario.yaml")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/scenario.yaml: cannot read the file"))
        }
    }

    @Test func aFIFOOrALargeFileIsRefusedWithoutReadingIt() throws {
        let directory = try TemporaryDirectory(
            prefix: "focal-scenarios-", files: ["big.yaml": "# " + String(repeating: "x", count: 2 << 20)])
        let fifo = directory.path + "/fifo.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes to the FIFO: reading it would wait for ever.
        let notAFile = #expect(throws: ScenarioError.self) { try Scenario.load(contentsOf: fifo) }
        #expect(notAFile?.message == "cannot read the file: it is not a regular file")
        let large = #expect(throws: ScenarioError.self) { try Scenario.load(contentsOf: directory.path + "/big.yaml") }
        #expect(large?.message == "the file has 2097154 bytes; a scenario has at most 1048576 (1 MiB)")
    }
}

/// References, limits and the new keys are checked before the journey plays.
@Suite struct ScenarioReferenceErrorTests {
    @Test func aDanglingViewReferenceNamesItsLine() throws {
        let error = try #require(
            parseError(
                """
                app:
                  root: home
                  screens:
                    home:
                      views:
                        - label: {id: total, analyzer: total, observe: [{of: price, property: text}]}
                journey: [launch]
                """))
        #expect(error.line == 6)
        #expect(error.message == "no view has the identifier 'price' here; expected 'total'")
    }

    @Test func anUnknownModelIsRefusedInTheAppAndInSteps() throws {
        let inApp = try #require(
            parseError(
                """
                app:
                  root: home
                  screens:
                    home: {analyzer: home, observe: [{model: cart, property: count}]}
                journey: [launch]
                """))
        #expect(inApp.line == 4)
        #expect(inApp.message.hasPrefix("there is no model named 'cart'"))
        let inStep = try #require(
            parseError(
                """
                app:
                  root: home
                  models: {basket: {count: 0}}
                  screens: {home: {}}
                journey:
                  - launch
                  - set: {model: cart, key: count, value: 1}
                """))
        #expect(inStep.line == 7)
        #expect(inStep.step?.number == 2)
        #expect(inStep.message.contains("expected 'basket'"))
    }

    @Test func focusMustGoToAViewWithAnAnalyzer() throws {
        let error = try #require(
            parseError(
                """
                app:
                  root: home
                  screens:
                    home:
                      views:
                        - view: {id: card}
                        - button: {id: more, analyzer: more, focus-to: card}
                journey: [launch]
                """))
        #expect(error.line == 7)
        #expect(error.message.contains("has no 'analyzer'"))
    }

    @Test func wrongTypesNameWhatWasExpected() throws {
        let error = try #require(
            parseError(
                """
                app: {root: home, screens: {home: {}}}
                journey:
                  - launch
                  - delete: {rows: first}
                """))
        #expect(error.line == 4)
        #expect(error.message == "'rows' must be a list, not the text 'first'")
    }

    @Test("one insert or delete step names at most 10,000 entries; one more is refused with file and line")
    func changedItemsLimit() throws {
        func journey(_ step: String) -> String {
            """
            app: {root: home, screens: {home: {}}}
            journey:
              - launch
              - \(step)
            """
        }
        let limit = 10_000
        let positions = { (count: Int) in (0..<count).map(String.init).joined(separator: ", ") }
        let rows = { (count: Int) in Array(repeating: "x", count: count).joined(separator: ", ") }
        #expect(parseError(journey("delete: {rows: [\(positions(limit))]}")) == nil)
        #expect(parseError(journey("insert: {rows: [\(rows(limit))], at: 0}")) == nil)
        for step in ["delete: {rows: [\(positions(limit + 1))]}", "insert: {rows: [\(rows(limit + 1))], at: 0}"] {
            let error = try #require(parseError(journey(step)))
            #expect(error.description.hasPrefix("test.yaml:4:"), "\(error)")
            #expect(error.message == "'rows' has \(limit + 1) entries; one step changes at most \(limit)", "\(error)")
        }
    }

    @Test func deepNestingAndLargeFilesAreRefused() throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let nested = try #require(parseError("name: x\nvalues: \(deep)\n"))
        #expect(nested.message == "lists and mappings nest more than 64 deep")
        let large = try #require(parseError("name: x\n#" + String(repeating: "x", count: 1 << 20) + "\n"))
        #expect(large.message.hasPrefix("the file has 1048586 bytes; a scenario has at most 1048576"))
    }

    @Test func aMissingViewInARowIsAStepFailure() throws {
        let played = try play(
            """
            app:
              root: home
              screens:
                home:
                  views:
                    - table: {rows: [A, B], cell: {analyzer: cell, views: [{button: {id: like, analyzer: like}}]}}
            journey:
              - launch
              - tap: {row: 1, view: share}
            """)
        let failure = try #require(played.failure)
        #expect(failure.line == 9)
        #expect(failure.message == "the cell of item 1 of section 0 has no view 'share'; expected 'like'")
    }
}
