import FocalJSON
import FocalScenarios
import Testing

@Suite struct ScenarioParsingTests {
    let minimal = """
        app: {root: home, screens: {home: {}}}
        journey: [launch]
        """

    @Test func readsTheTopLevelKeys() throws {
        let text = """
            name: shop
            tasks: ../tasks
            start-time: 1732200000000
            screen-size: [320, 480]
            app: {root: home, screens: {home: {}}}
            journey: [launch]
            expect: [{event: a}]
            """
        let read = try scenario(text, file: "dir/sub/shop.yaml")
        #expect(read.name == "shop")
        #expect(read.file == "dir/sub/shop.yaml")
        #expect(read.tasksDirectory == "dir/sub/../tasks")
        #expect(read.startTime == 1_732_200_000_000)
        #expect(read.expectation == .exactly([["event": "a"]]))
    }

    @Test func defaultsNameToTheFileNameAndTimeToTheDefaultStart() throws {
        let read = try scenario(minimal, file: "Examples/checkout.flow.yaml")
        #expect(read.name == "checkout.flow")
        #expect(read.tasksDirectory == nil)
        #expect(read.startTime == Scenario.defaultStartTime)
        #expect(read.expectation == nil)
    }

    @Test func keepsAbsoluteTasksDirectories() throws {
        let read = try scenario("tasks: /srv/tasks\n" + minimal, file: "a/b.yaml")
        #expect(read.tasksDirectory == "/srv/tasks")
    }

    @Test func readsJSONScenarios() throws {
        let text = """
            {"name": "json", "app": {"root": {"navigation": "home"}, "screens": {"home": {"views": [{"button": {"id": "go", "title": "Go"}}]}}},
             "journey": ["launch", {"tap": "go"}], "expect": {"contains": [{"n": 1, "s": "x", "b": true, "z": null}]}}
            """
        let read = try scenario(text, file: "s.json")
        #expect(read.name == "json")
        #expect(read.expectation == .contains([["n": 1, "s": "x", "b": true, "z": nil]]))
    }

    @Test func typesScalarsByTheCoreSchema() throws {
        let text =
            minimal + """

                expect: [[yes, no, on, "true", true, 1, "1", 1.5, -2, null, ~, '3', 1e3]]
                """
        let read = try scenario(text)
        #expect(
            read.expectation
                == .exactly([
                    [
                        "yes", "no", "on", "true", true, 1, "1", 1.5, -2, nil, nil, "3", 1000,
                    ]
                ]))
    }

    @Test func readsContainsExpectations() throws {
        let read = try scenario(minimal + "\nexpect: {contains: [{a: 1}, {a: 1}]}")
        #expect(read.expectation == .contains([["a": 1], ["a": 1]]))
    }

    @Test func readsPartialExpectations() throws {
        let read = try scenario(minimal + "\nexpect: {partial: true, results: [{a: 1}]}")
        #expect(read.expectation == Expectation(.exactly, [["a": 1]], partial: true))
        let contains = try scenario(minimal + "\nexpect: {partial: true, contains: [{a: 1}]}")
        #expect(contains.expectation == Expectation(.contains, [["a": 1]], partial: true))
        #expect(throws: ScenarioError.self) { try scenario(minimal + "\nexpect: {partial: true}") }
        #expect(throws: ScenarioError.self) { try scenario(minimal + "\nexpect: {partial: 3, results: []}") }
    }
}
