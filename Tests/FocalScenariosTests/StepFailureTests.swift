import FocalScenarios
import Foundation
import Testing

/// A step that cannot be done stops the journey with an error naming the file, the line, the step and what was
/// expected.
@Suite struct StepFailureTests {
    func failure(_ journey: String, file: String = "shop.yaml") throws -> ScenarioError {
        try #require(try play(masterDetail(journey: journey), file: file).failure)
    }

    @Test func unknownIdentifierListsTheIdentifiersOnScreen() throws {
        let error = try failure("  - launch\n  - select: 1\n  - tap: bye")
        #expect(error.description == "shop.yaml:22:5: step 3 (tap): no view on screen has the identifier 'bye'; expected 'buy'")
    }

    @Test func unknownPathListsThePathsOnScreen() throws {
        let error = try failure("  - launch\n  - tap: /master/table")
        #expect(error.step == StepLabel(number: 2, kind: "tap"))
        #expect(
            error.message
                == ("no element on screen has the focus path '/master/table'; expected '/master', '/master/tableView' or '/master/tableView/cell'")
        )
    }

    @Test func ambiguousPathsAskForMore() throws {
        let error = try failure("  - launch\n  - tap: tableView/cell")
        #expect(error.message.hasPrefix("3 elements on screen match the focus path 'tableView/cell'"))
        #expect(error.message.hasSuffix("use a longer path, an identifier, or select the row"))
    }

    @Test func itemsOutOfRangeNameTheCount() throws {
        let row = try failure("  - launch\n  - select: 7")
        #expect(row.message == "section 0 has 5 items; there is no item 7")
        let section = try failure("  - launch\n  - scroll: {to-row: 0, section: 2}")
        #expect(section.message == "the list has 1 section; there is no section 2")
    }

    @Test func impossibleUserActionsSayWhatWasAttempted() throws {
        let back = try failure("  - launch\n  - back")
        #expect(back.description == "shop.yaml:21:5: step 2 (back): cannot go back: there is no screen to go back to")
        let dismiss = try failure("  - launch\n  - dismiss")
        #expect(dismiss.message == "cannot dismiss: nothing is presented")
        let type = try failure("  - launch\n  - type: hello")
        #expect(type.message == "cannot type: nothing accepts typing")
        let tab = try failure("  - launch\n  - switch-tab: 1")
        #expect(tab.message == "there is no tab bar on screen")
    }

    @Test func tapsOnViewsThatAreNotOnScreenFail() throws {
        let error = try failure("  - launch\n  - select: 1\n  - back\n  - tap: /master/tableView/cell/detail/button")
        #expect(error.step == StepLabel(number: 4, kind: "tap"))
        #expect(error.message.hasPrefix("no element on screen has the focus path"))
    }

    @Test func stepsNeedTheRightKindOfElement() throws {
        let slide = try failure("  - launch\n  - slide: {on: fruits, to: 1}")
        #expect(slide.message == "'fruits' is not a slider")
        let list = try failure("  - launch\n  - select: {row: 0, in: /master}")
        #expect(list.message == "path '/master' is not a table or collection")
    }

    @Test func elementsWithoutAnalyzersCannotReport() throws {
        let text = masterDetail(
            journey: "  - launch\n  - update: {on: plain, key: a, value: 1}", masterViews: "        - label: {id: plain, text: Hi}")
        let error = try #require(try play(text).failure)
        #expect(error.message == "'plain' has no analyzer; give it one with 'analyzer:'")
    }

    @Test func actionsThatCannotBeDoneFailTheStep() throws {
        let text = """
            app:
              root: home
              screens:
                home:
                  views:
                    - button: {title: Go, id: go, on-tap: {push: other}}
                    - button: {title: Tab, id: tab, on-tap: {switch-tab: 2}}
                other: {}
            journey:
              - launch
              - tap: go
            """
        let error = try #require(try play(text).failure)
        #expect(
            error.description
                == "test.yaml:11:5: step 2 (tap): the tap on button 'go': cannot push 'other': screen 'home' is not in a navigation stack")
        let tab = try #require(try play(text.replacingOccurrences(of: "tap: go", with: "tap: tab")).failure)
        #expect(tab.message == "the tap on button 'tab': cannot switch to tab 2: screen 'home' is not in a tab bar")
    }

    @Test func theJourneyStopsAtTheFailingStep() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - tap: nothing\n  - select: 1"))
        #expect(played.run.playedStepCount == 2)
        #expect(!played.trace.contains("record /master/tableView/cell did-select"))
    }
}
