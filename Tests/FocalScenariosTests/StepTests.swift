import FocalJSON
import FocalOpLog
import FocalScenarios
import FocalSimulator
import Testing

/// Each kind of journey step, played on the simulated app the scenario describes.
@Suite struct StepTests {
    @Test func launchBuildsTheAppAndRegistersItsNodes() throws {
        let played = try play(masterDetail(journey: "  - launch"))
        #expect(played.failure == nil)
        #expect(played.run.application.isLaunched)
        let navigation = try #require(played.run.application.keyWindow?.rootViewController as? NavigationController)
        #expect(navigation.viewControllers.count == 1)
        #expect(
            Array(played.trace.prefix(4)) == [
                "register /", "register /master", "register /master/tableView", "register /master/tableView/cell",
            ])
        #expect(played.trace(containing: "register /master/tableView/cell").count == 3)
    }

    @Test func tapFindsViewsByIdentifierAndByFocusPath() throws {
        for target in ["buy", "/master/tableView/cell/detail/button", "detail/button", "{id: buy}", "{path: button}"] {
            let played = try play(masterDetail(journey: "  - launch\n  - select: 1\n  - tap: \(target)"))
            #expect(played.failure == nil, "\(target)")
            #expect(played.trace.last == "record /master/tableView/cell/detail/button touch-up-inside", "\(target)")
        }
    }

    @Test func tapAtAPointHitsWhatIsThere() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - tap: {at: [100, 60]}"))
        #expect(played.failure == nil)
        #expect(played.trace.contains("record /master/tableView/cell did-select"))
        let navigation = try #require(played.run.application.keyWindow?.rootViewController as? NavigationController)
        #expect(navigation.viewControllers.count == 2)
    }

    @Test func selectRecordsTheSelectionAndPerformsTheAction() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - select: {row: 4, in: fruits}"))
        #expect(played.failure == nil)
        #expect(played.trace.contains("record /master/tableView/cell did-select"))
        #expect(played.trace.contains("register /master/tableView/cell/detail"))
        let selected = played.ops.compactMap { op -> Registration? in
            guard case .register(let registration) = op, registration.name == "cell", registration.index == 4 else { return nil }
            return registration
        }
        #expect(selected.count == 1, "row 4 was scrolled to before being tapped")
    }

    @Test func scrollToARowShowsItAndHidesWhatLeaves() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - scroll: {to-row: 3}"))
        #expect(played.failure == nil)
        #expect(
            played.trace.suffix(5) == [
                "record /master/tableView did-begin-scrolling",
                "record /master/tableView/cell ana-disappeared",
                "register /master/tableView/cell",
                "record /master/tableView/cell ana-updated",
                "record /master/tableView/cell ana-appeared",
            ])
    }

    @Test func scrollByAnOffsetMovesTheContent() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - scroll: {by: 60}\n  - scroll: {by: [0, -20], in: fruits}"))
        #expect(played.failure == nil)
        let table = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "fruits") as? TableView)
        #expect(table.contentOffset == Point(x: 0, y: 40))
        #expect(played.trace(containing: "did-begin-scrolling").count == 2)
    }

    @Test func typeGoesToTheFocusedFieldAndReturnTriggersItsAction() throws {
        let played = try play(
            formScenario(
                journey: """
                      - launch
                      - type: {into: name, text: "ab"}
                      - type: "c\\n"
                    """))
        #expect(played.failure == nil)
        let navigation = try #require(played.run.application.keyWindow?.rootViewController as? NavigationController)
        #expect(navigation.viewControllers.count == 2, "return pushed 'done'")
        let field = try #require(navigation.viewControllers[0].view.view(withAccessibilityIdentifier: "name") as? TextField)
        #expect(field.text == "abc")
        #expect(played.trace(containing: "/form/name ana-updated").count == 4, "the initial text, then three keystrokes")
        #expect(played.trace.contains("record /form/name editing-did-end-on-exit"))
        #expect(played.trace.contains("register /form/done"))
    }

    @Test func backPopsAndRemovesThePoppedScreensNode() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - select: 1\n  - back"))
        #expect(played.failure == nil)
        let navigation = try #require(played.run.application.keyWindow?.rootViewController as? NavigationController)
        #expect(navigation.viewControllers.count == 1)
        #expect(played.trace.contains("deregister /master/tableView/cell/detail"))
    }

    @Test func switchTabSelectsByPositionAndByScreenName() throws {
        let text = """
            app:
              root: {tabs: [one, {navigation: two}]}
              screens:
                one: {analyzer: one}
                two: {analyzer: two}
            journey:
              - launch
              - switch-tab: 1
              - switch-tab: one
              - switch-tab: two
            """
        let played = try play(text)
        #expect(played.failure == nil)
        let tabs = try #require(played.run.application.keyWindow?.rootViewController as? TabBarController)
        #expect(tabs.selectedIndex == 1)
        #expect(played.trace(containing: "/two ana-appeared").count == 2)
        #expect(played.trace(containing: "/one ana-disappeared").count == 2)
    }

    @Test func dismissRemovesThePresentedScreen() throws {
        let played = try play(modalScenario(journey: "  - launch\n  - tap: open\n  - dismiss"))
        #expect(played.failure == nil)
        #expect(played.run.application.keyWindow?.rootViewController?.presentedViewController == nil)
        #expect(played.trace.contains("record /home/open/modal ana-appeared"))
        #expect(played.trace.contains("record /home/open/modal ana-disappeared"))
    }

    @Test func actionsPresentAndDismiss() throws {
        let played = try play(modalScenario(journey: "  - launch\n  - tap: open\n  - tap: close"))
        #expect(played.failure == nil)
        #expect(played.run.application.keyWindow?.rootViewController?.presentedViewController == nil)
        #expect(played.trace.filter { $0.hasSuffix("/home ana-appeared") }.count == 2)
    }

    @Test func actionsSwitchTabsAndPop() throws {
        let text = """
            app:
              root: {tabs: [{navigation: one}, two]}
              screens:
                one:
                  views: [{button: {id: next, title: Next, on-tap: {push: deeper}}}]
                deeper:
                  views: [{button: {id: up, title: Up, on-tap: pop}}, {button: {id: other, title: Other, on-tap: {switch-tab: two}}}]
                two: {}
            journey: [launch, {tap: next}, {tap: other}, {switch-tab: 0}, {tap: up}]
            """
        let played = try play(text)
        #expect(played.failure == nil)
        let tabs = try #require(played.run.application.keyWindow?.rootViewController as? TabBarController)
        #expect(tabs.selectedIndex == 0)
        #expect((tabs.viewControllers[0] as? NavigationController)?.viewControllers.count == 1)
    }

    @Test func waitMovesTheVirtualClock() throws {
        let text = "start-time: 5000\n" + masterDetail(journey: "  - launch\n  - wait: 1500\n  - select: 1")
        let played = try play(text)
        let times = played.ops.compactMap { op -> Int64? in
            switch op {
            case .register(let registration): registration.time
            case .record(let recording): recording.time
            case .deregister(let deregistration): deregistration.time
            case .snapshot, .end: nil
            }
        }
        #expect(times.first == 5000)
        #expect(times.last == 6500)
        #expect(Set(times) == [5000, 6500])
    }

    @Test func updateReportsAValueOnAnElementsNode() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - update: {on: /master, key: badge, value: {count: 3}}"))
        #expect(played.failure == nil)
        guard case .record(let recording) = try #require(played.ops.last) else {
            Issue.record("not a record")
            return
        }
        #expect(recording.event == "ana-updated")
        #expect(recording.properties == ["key-path": "badge", "value": ["count": 3]])
    }

    @Test func updateOfARowChangesItsCellAndReportsIt() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - update: {row: 1, key: title, value: Blueberries}"))
        #expect(played.failure == nil)
        let table = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "fruits") as? TableView)
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.textLabel.text == "Blueberries")
        guard case .record(let recording) = try #require(played.ops.last) else {
            Issue.record("not a record")
            return
        }
        #expect(recording.properties == ["key-path": "title", "value": "Blueberries"])
        #expect(recording.node.keys == ["1"])
    }

    @Test func updateOfARowThatIsNotDisplayedShowsWhenItIs() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - update: {row: 4, key: price, value: 2}\n  - scroll: {to-row: 4}"))
        #expect(played.failure == nil)
        let values = played.ops.compactMap { op -> String? in
            guard case .record(let recording) = op, recording.node.keys == ["4"], recording.event == "ana-updated" else { return nil }
            return recording.properties.jsonString
        }
        #expect(values == [#"{"key-path":"title","value":"Elderberries"}"#, #"{"key-path":"price","value":2}"#])
    }

    @Test func focusPutsWhatOpensNextUnderTheFocusedElement() throws {
        let focused = try play(formScenario(journey: "  - launch\n  - tap: name\n  - wait: 10\n  - focus: name\n  - type: \"\\n\""))
        #expect(focused.trace.contains("register /form/name/done"))
        let unfocused = try play(formScenario(journey: "  - launch\n  - tap: name\n  - wait: 10\n  - type: \"\\n\""))
        #expect(unfocused.trace.contains("register /form/done"))
    }

    @Test func reloadReplacesTheRows() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - reload: {in: fruits, rows: [Kiwi]}"))
        #expect(played.failure == nil)
        let table = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "fruits") as? TableView)
        #expect(table.numberOfRows(inSection: 0) == 1)
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0))?.textLabel.text == "Kiwi")
        #expect(played.ops.contains { if case .deregister = $0 { true } else { false } }, "the old rows are removed")
        #expect(
            played.trace.suffix(3) == [
                "register /master/tableView/cell", "record /master/tableView/cell ana-updated",
                "record /master/tableView/cell ana-appeared",
            ])
    }

    @Test func reloadOfTheOnlyListKeepsItsContent() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - reload"))
        #expect(played.failure == nil)
        let table = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "fruits") as? TableView)
        #expect(table.numberOfRows(inSection: 0) == 5)
    }

    @Test func snapshotAsksTheEngineForTheTree() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - snapshot\n  - snapshot: json"))
        #expect(played.ops.suffix(2) == [.snapshot(.xml), .snapshot(.json)])
    }

    @Test func recordRecordsACustomEvent() throws {
        let played = try play(masterDetail(journey: "  - launch\n  - record: {on: fruits, event: long-press, properties: {ms: 800}}"))
        guard case .record(let recording) = try #require(played.ops.last) else {
            Issue.record("not a record")
            return
        }
        #expect(played.trace.last == "record /master/tableView long-press")
        #expect(recording.properties == ["ms": 800])
    }

    @Test func slideMovesASlider() throws {
        let played = try play(formScenario(journey: "  - launch\n  - slide: {on: volume, to: 0.5}"))
        #expect(played.failure == nil)
        let slider = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "volume") as? Slider)
        #expect(abs(slider.value - 0.5) < 0.01)
        #expect(played.trace.contains("record /form/volume value-changed"))
    }

    @Test func namedSectionsGetNodesAndCellsShowTheirTemplates() throws {
        let text = """
            app:
              root: gallery
              screens:
                gallery:
                  analyzer: gallery
                  views:
                    - collection:
                        id: grid
                        analyzer: grid
                        item-size: [100, 100]
                        cell: {analyzer: tile, views: [{label: {id: caption, text: "{title}: {likes}"}}]}
                        sections:
                          - {name: recent, items: [{title: Beach, id: p1, values: {likes: 12}}]}
                          - items: {count: 2, title: "Old {index}"}
            journey: [launch]
            """
        let played = try play(text)
        #expect(played.failure == nil)
        #expect(played.trace.contains("register /gallery/grid/recent"))
        #expect(played.trace.contains("register /gallery/grid/recent/tile"))
        #expect(played.trace(containing: "register /gallery/grid/tile").count == 2)
        let caption = try #require(played.run.application.keyWindow?.view(withAccessibilityIdentifier: "caption") as? Label)
        #expect(caption.text == "Beach: 12")
    }

    @Test func playsStepByStep() throws {
        var ops: [Op] = []
        let run = ScenarioRun(scenario: try scenario(masterDetail(journey: "  - launch\n  - select: 1"))) { ops.append($0) }
        try run.playNextStep()
        #expect(run.playedStepCount == 1)
        #expect(!run.isFinished)
        let launched = ops.count
        try run.playNextStep()
        #expect(run.isFinished)
        #expect(ops.count > launched)
    }

    @Test func sameScenarioSameOps() throws {
        let text = masterDetail(journey: "  - launch\n  - scroll: {to-row: 4}\n  - select: 2\n  - tap: buy\n  - back")
        #expect(try play(text).ops == play(text).ops)
    }
}

/// A form in a navigation stack: a text field `name` (observing its text) whose return pushes `done`, and a slider.
func formScenario(journey: String) -> String {
    """
    app:
      root: {navigation: form}
      screens:
        form:
          analyzer: form
          views:
            - text-field: {id: name, analyzer: name, observe: [text], on-return: {push: done}}
            - slider: {id: volume, analyzer: volume, frame: [0, 100, 101, 44]}
        done: {analyzer: done}
    journey:
    \(journey)
    """
}

/// A screen `home` with a button `open` presenting `modal`, whose button `close` dismisses it.
func modalScenario(journey: String) -> String {
    """
    app:
      root: home
      screens:
        home:
          analyzer: home
          views:
            - button: {title: Open, id: open, analyzer: open, on-tap: {present: modal}}
        modal:
          analyzer: modal
          views:
            - button: {title: Close, id: close, analyzer: close, on-tap: dismiss}
    journey:
    \(journey)
    """
}
