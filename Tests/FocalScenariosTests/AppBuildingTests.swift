import FocalScenarios
import FocalSimulator
import Testing

/// The simulated app a scenario's description builds, inspected through the simulator.
@Suite struct AppBuildingTests {
    func launched(_ screens: String, root: String = "home", size: String = "[320, 480]") throws -> Application {
        let played = try play(
            """
            screen-size: \(size)
            app:
              root: \(root)
              screens:
            \(screens)
            journey: [launch]
            """)
        #expect(played.failure == nil)
        return played.run.application
    }

    func view(_ identifier: String, in application: Application) throws -> View {
        try #require(application.keyWindow?.view(withAccessibilityIdentifier: identifier))
    }

    @Test func stacksViewsWithoutFramesFromTheTop() throws {
        let app = try launched(
            """
                home:
                  views:
                    - label: {id: title, text: Hello}
                    - button: {id: more, title: More, height: 60}
                    - view: {id: box, views: [{label: A}, {label: B}]}
                    - label: {id: fixed, frame: [10, 400, 100, 20]}
                    - table: {id: list, rows: [a]}
            """)
        #expect(try view("title", in: app).frame == Rect(x: 0, y: 0, width: 320, height: 44))
        #expect(try view("more", in: app).frame == Rect(x: 0, y: 44, width: 320, height: 60))
        #expect(try view("box", in: app).frame == Rect(x: 0, y: 104, width: 320, height: 88))
        #expect(try view("fixed", in: app).frame == Rect(x: 10, y: 400, width: 100, height: 20))
        #expect(try view("list", in: app).frame == Rect(x: 0, y: 192, width: 320, height: 288), "the rest of the screen")
    }

    @Test func buildsEachKindOfViewWithItsProperties() throws {
        let app = try launched(
            """
                home:
                  views:
                    - label: {id: label, text: Hi, hidden: true}
                    - button: {id: button, title: Go, enabled: false, alpha: 0.5}
                    - switch: {id: switch, on: true}
                    - slider: {id: slider, value: 3, min: 1, max: 5}
                    - text-field: {id: field, text: abc, placeholder: Name}
                    - collection: {id: grid, item-size: [40, 40], items: [a, b, c]}
            """)
        let label = try #require(try view("label", in: app) as? Label)
        #expect(label.text == "Hi" && label.isHidden)
        let button = try #require(try view("button", in: app) as? Button)
        #expect(button.title == "Go" && !button.isEnabled && button.alpha == 0.5)
        #expect((try view("switch", in: app) as? Switch)?.isOn == true)
        let slider = try #require(try view("slider", in: app) as? Slider)
        #expect(slider.value == 3 && slider.minimumValue == 1 && slider.maximumValue == 5)
        let field = try #require(try view("field", in: app) as? TextField)
        #expect(field.text == "abc" && field.placeholder == "Name")
        let grid = try #require(try view("grid", in: app) as? CollectionView)
        #expect(grid.layout.itemSize == Size(width: 40, height: 40))
        #expect(grid.numberOfItems(inSection: 0) == 3)
    }

    @Test func buildsTablesWithSectionsRowHeightsAndIdentities() throws {
        let app = try launched(
            """
                home:
                  views:
                    - table:
                        id: list
                        row-height: 30
                        sections:
                          - {name: first, rows: [{title: A, id: a}, B]}
                          - rows: {count: 3, title: "Row {index}"}
            """)
        let table = try #require(try view("list", in: app) as? TableView)
        #expect(table.rowHeight == 30)
        #expect(table.numberOfSections == 2)
        #expect(table.numberOfRows(inSection: 1) == 3)
        #expect(table.itemIdentifier(at: IndexPath(row: 0, section: 0)) == "a")
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 1))?.textLabel.text == "Row 2")
    }

    @Test func buildsContainers() throws {
        let tabs = try launched("    one: {}\n    two: {}", root: "{tabs: [one, {navigation: two}]}")
        let tabBar = try #require(tabs.keyWindow?.rootViewController as? TabBarController)
        #expect(tabBar.viewControllers.count == 2)
        #expect(tabBar.viewControllers[1] is NavigationController)
        let navigation = try launched("    one: {title: First}", root: "{navigation: one}")
        let stack = try #require(navigation.keyWindow?.rootViewController as? NavigationController)
        #expect(stack.topViewController?.title == "First")
    }

    @Test func pushesANewInstanceOfTheScreenEachTime() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - select: 1\n  - back\n  - select: 1"))
        let navigation = try #require(played.run.application.keyWindow?.rootViewController as? NavigationController)
        #expect(navigation.viewControllers.count == 2)
        #expect(played.trace.filter { $0 == "register /master/tableView/cell/detail" }.count == 2, "\(played.trace)")
    }
}
