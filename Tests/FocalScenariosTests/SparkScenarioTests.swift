import FocalJSON
import FocalOpLog
import FocalScenarios
import Testing

/// SparkChamber from scenarios (`sparks:`, the `spark` step) and the touches, interaction and scrolling it needs.
@Suite struct SparkScenarioTests {
    private func shop(_ views: String, journey: String, screenKeys: String = "") -> String {
        """
        app:
          root: {navigation: shop}
          screens:
            shop:
              analyzer: shop
              views:
        \(views)
            detail:
              analyzer: detail
        \(screenKeys)
        journey:
        \(journey)
        """
    }

    /// The recordings named `event`, with their properties.
    private func recorded(_ played: Played, _ event: String) -> [JSONObject] {
        played.ops.compactMap { op in
            guard case .record(let recording) = op, recording.event == event else { return nil }
            return recording.properties
        }
    }

    @Test func aSparkRecordsOnTheElementsNodeOrTheRoots() throws {
        let played = try play(
            shop(
                """
                        - label: {text: Sale, id: banner, sparks: [{trigger: didAppear, record: banner-seen, trace: promo}]}
                        - button: {title: Buy, id: buy, analyzer: buy, sparks: [{trigger: targetAction, record: buy-spark}]}
                """, journey: "  - launch\n  - tap: buy"))
        #expect(played.failure == nil)
        #expect(recorded(played, "banner-seen") == [["trigger": "didAppear", "trace": "promo"]])
        #expect(played.trace.contains("record /shop/buy buy-spark"))
        let root = played.ops.compactMap { op -> NodeID? in
            guard case .register(let registration) = op, registration.parent == nil else { return nil }
            return registration.node
        }.first
        let bannerNode = played.ops.compactMap { op -> NodeID? in
            guard case .record(let recording) = op, recording.event == "banner-seen" else { return nil }
            return recording.node
        }.first
        #expect(bannerNode != nil && bannerNode == root, "a view without analyzer records on the root")
    }

    @Test func aSingleFireSparkFiresOnceAndAnIdIsSharedByItsSparks() throws {
        let played = try play(
            shop(
                """
                        - button: {title: A, id: a, sparks: [{trigger: targetAction, record: first, once: true}, {trigger: targetAction, record: every}]}
                        - button: {title: B, id: b, sparks: [{trigger: targetAction, record: shared, once: true, id: ab}]}
                        - button: {title: C, id: c, sparks: [{trigger: targetAction, record: shared, once: true, id: ab}]}
                """, journey: "  - launch\n  - tap: a\n  - tap: a\n  - tap: c\n  - tap: b"))
        #expect(played.failure == nil)
        #expect(recorded(played, "first").count == 1)
        #expect(recorded(played, "every").count == 2)
        #expect(recorded(played, "shared").count == 1)
    }

    @Test func timeOnScreenIsTheVirtualTimeBetweenAppearingAndDisappearing() throws {
        var traces: [String] = []
        let text = shop(
            """
                    - button: {title: Go, id: go, on-tap: {push: detail}}
            """, journey: "  - launch\n  - tap: go\n  - wait: 1500\n  - back",
            screenKeys: "      sparks: [{time-on-screen: detail-time, trace: detail}]")
        var ops: [Op] = []
        let run = ScenarioRun(scenario: try scenario(text)) { ops.append($0) }
        run.traceHandler = { traces.append($0) }
        try run.play()
        let times = ops.compactMap { op -> JSONObject? in
            guard case .record(let recording) = op, recording.event == "detail-time" else { return nil }
            return recording.properties
        }
        #expect(times == [["ms": 1500, "trace": "detail"]])
        #expect(traces.count == 2, "appear and disappear are both traced")
        #expect(traces.allSatisfy { $0.hasPrefix("Traced event: SparkEvent(trigger: did") })
    }

    @Test func anAppTriggerIsFiredByTheSparkStep() throws {
        let views = """
                    - label: {text: Sale, id: banner, sparks: [{trigger: promoted, record: promo}]}
            """
        let played = try play(shop(views, journey: "  - launch\n  - spark: {on: banner, trigger: promoted}"))
        #expect(played.failure == nil)
        #expect(recorded(played, "promo") == [["trigger": "promoted"]])
        let wrong = try play(shop(views, journey: "  - launch\n  - spark: {on: banner, trigger: other}"))
        #expect(wrong.failure?.message.hasPrefix("'banner' has no spark with the trigger 'other'") == true)
    }

    @Test func aTouchOnACellOrAViewInsideItEndsOnTheCell() throws {
        let played = try play(
            shop(
                """
                        - table:
                            analyzer: list
                            rows: [A, B, C]
                            cell: {analyzer: row, sparks: [{trigger: didEndTouch, record: touched}, {trigger: targetAction, record: picked}], views: [{label: {text: "{title}", frame: [0, 0, 100, 20]}}]}
                """, journey: "  - launch\n  - select: 1\n  - tap: {at: [10, 10]}"))
        #expect(played.failure == nil)
        #expect(recorded(played, "touched").count == 2, "the cell's centre, then the label of row 0")
        #expect(recorded(played, "picked").count == 2)
    }

    @Test func aTouchLiftedOutsideAControlIsTouchUpOutsideAndACancelledOneTouchCancel() throws {
        let views = """
                    - button: {title: Go, id: go, analyzer: go, on-tap: {push: detail}}
            """
        let outside = try play(shop(views, journey: "  - launch\n  - touch: {on: go, move-to: outside}"))
        #expect(outside.failure == nil)
        #expect(outside.trace.last == "record /shop/go touch-up-outside")
        #expect(!outside.trace.contains("register /shop/detail"), "no tap, no push")
        let cancelled = try play(shop(views, journey: "  - launch\n  - touch: {on: go, cancel: true}"))
        #expect(cancelled.trace.last == "record /shop/go touch-cancel")
        let back = try play(
            shop(views, journey: "  - launch\n  - touch: {on: go, move-to: [200, 60]}\n  - touch: {on: go, move-to: [10, 10]}"))
        #expect(back.failure == nil)
        #expect(back.trace(containing: "touch-up").suffix(2) == ["record /shop/go touch-up-outside", "record /shop/go touch-up-inside"])
    }

    @Test func aViewWithoutUserInteractionLetsTouchesThrough() throws {
        let played = try play(
            shop(
                """
                        - view: {id: box, user-interaction: false, views: [{button: {title: Go, id: go, analyzer: go}}]}
                """, journey: "  - launch\n  - tap: go"))
        #expect(played.failure == nil, "the touch goes to the screen's view behind")
        #expect(played.trace(containing: "touch-up-inside").isEmpty)
        let enabled = try play(
            shop(
                """
                        - view: {id: box, views: [{button: {title: Go, id: go, analyzer: go}}]}
                """, journey: "  - launch\n  - tap: go"))
        #expect(enabled.trace.last == "record /shop/go touch-up-inside")
    }

    /// UIKit's hit testing sends a touch past a view that takes none, and to the view that covers the one aimed
    /// at: both taps go where hit testing sends them, and both warn, saying why.
    @Test func tapsThatHitTestingSendsElsewhereWarnAlike() throws {
        let text = shop(
            """
                    - view: {id: box, user-interaction: false, views: [{button: {title: Go, id: go, analyzer: go}}]}
                    - button: {title: Under, id: under, analyzer: under, frame: [0, 300, 100, 40]}
                    - button: {title: Over, id: over, analyzer: over, frame: [0, 300, 100, 40]}
            """, journey: "  - launch\n  - tap: go\n  - tap: under")
        var ops: [Op] = []
        var warnings: [String] = []
        let run = ScenarioRun(scenario: try scenario(text)) { ops.append($0) }
        run.warningHandler = { warnings.append($0) }
        try run.play()
        #expect(warnings.count == 2, "\(warnings)")
        #expect(
            warnings.first?.contains(
                "step 2 (tap): the touch on 'go' went to a View: 'box' around it takes no touches (user-interaction: false)") == true,
            "\(warnings)")
        #expect(
            warnings.last?.contains("step 3 (tap): the touch on 'under' went to 'over': it is covered by that view, in front of it")
                == true,
            "\(warnings)")
        let taps = ops.compactMap { op -> String? in
            guard case .record(let recording) = op, recording.event == "touch-up-inside" else { return nil }
            return recording.event
        }
        #expect(taps.count == 1, "the covering button was tapped; the one behind and the one in the box were not")
    }

    @Test func aSparkStepOnTheSwitchedOffTriggerWarns() throws {
        let text = shop(
            "          - label: {text: Sale, id: banner, sparks: [{trigger: none, record: never}]}",
            journey: "  - launch\n  - spark: {on: banner, trigger: none}")
        var ops: [Op] = []
        var warnings: [String] = []
        let run = ScenarioRun(scenario: try scenario(text)) { ops.append($0) }
        run.warningHandler = { warnings.append($0) }
        try run.play()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("step 2 (spark): the trigger 'none' switches a spark off") == true, "\(warnings)")
    }

    @Test func theAppsScrollingIsNoDrag() throws {
        let views = """
                    - table: {id: list, analyzer: list, height: 88, cell: row, rows: {count: 20, title: "Row {index}"}, sparks: [{trigger: didBeginScroll, record: dragged}]}
            """
        let byApp = try play(shop(views, journey: "  - launch\n  - scroll: {to-row: 10, by-app: true}"))
        #expect(byApp.failure == nil)
        #expect(byApp.trace(containing: "did-begin-scrolling").isEmpty)
        #expect(recorded(byApp, "dragged").isEmpty)
        let rows = byApp.ops.compactMap { op -> Int? in
            guard case .register(let registration) = op, registration.name == "row" else { return nil }
            return registration.index
        }
        #expect(rows == [0, 1, 9, 10], "rows 2 to 8 were jumped over")
        let byUser = try play(shop(views, journey: "  - launch\n  - scroll: {to-row: 10}"))
        #expect(byUser.trace(containing: "did-begin-scrolling").count == 1)
        #expect(recorded(byUser, "dragged").count == 1)
    }

    @Test func badSparksAreRefused() throws {
        func error(_ spark: String) -> String? {
            parseError(shop("          - label: {text: A, sparks: [\(spark)]}", journey: "  - launch"))?.message
        }
        #expect(error("{trigger: didappear, record: x}") == "the trigger 'didappear' is spelled 'didAppear'")
        #expect(error("{trigger: didAppear}") == "a spark needs 'record'")
        #expect(error("{trigger: didAppear, record: x, id: y}")?.contains("goes with 'once: true'") == true)
        #expect(error("{time-on-screen: t, record: x}")?.contains("'record' goes with 'trigger'") == true)
        #expect(error("{record: x}")?.contains("needs 'trigger' or 'time-on-screen'") == true)
    }
}
