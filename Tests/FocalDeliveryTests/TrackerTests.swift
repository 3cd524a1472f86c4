import FocalCore
import FocalDelivery
import FocalJSON
import FocalPatterns
import Synchronization
import Testing

struct SongTapped: TrackableEvent {
    var song = "Intro"
    var identifier: EventIdentifier { EventIdentifier(object: "Song", action: "Tapped", label: "More Info") }
    var metadata: JSONObject { ["song": .string(song)] }
}

struct ScreenShown: TrackableEvent {
    var identifier: EventIdentifier { EventIdentifier(object: "Screen", action: "Shown") }
}

struct PremiumMember: TrackableProperty {
    var isPremium: Bool
    var identifier: String { "premium" }
    var trackedValue: JSONValue? { .bool(isPremium) }
    func generateUpdateEvents() -> [any TrackableEvent] { isPremium ? [ScreenShown()] : [] }
}

struct Nickname: TrackableProperty {
    var identifier: String { "nickname" }
    var trackedValue: JSONValue? { nil }
}

/// An adapter that writes down everything it is given, in order.
final class RecordingAdapter: AnalyticsAdapter {
    let name: String
    let eventRule: TrackingRule<any TrackableEvent>?
    let propertyRule: TrackingRule<any TrackableProperty>?
    let resultRule: TrackingRule<ResultRecord>?
    private let log = Mutex<[String]>([])

    init(
        name: String = "recording", eventRule: TrackingRule<any TrackableEvent>? = nil,
        propertyRule: TrackingRule<any TrackableProperty>? = nil, resultRule: TrackingRule<ResultRecord>? = nil
    ) {
        self.name = name
        self.eventRule = eventRule
        self.propertyRule = propertyRule
        self.resultRule = resultRule
    }

    func configure() { note("configure") }
    func reset() { note("reset") }
    func track(event: any TrackableEvent) { note("event \(event.identifier.formatted)") }
    func track(property: any TrackableProperty) {
        note("property \(property.identifier)=\(property.trackedValue.map { $0.stringValue ?? $0.jsonString } ?? "nil")")
    }

    func note(_ line: String) { log.withLock { $0.append(line) } }
    var lines: [String] { log.withLock { $0 } }
}

/// An adapter that keeps the default `track(result:)`.
final class EventsOnlyAdapter: AnalyticsAdapter {
    private let log = Mutex<[EventIdentifier: JSONObject]>([:])
    func configure() {}
    func track(event: any TrackableEvent) { log.withLock { $0[event.identifier] = event.metadata } }
    func track(property: any TrackableProperty) {}
    var events: [EventIdentifier: JSONObject] { log.withLock { $0 } }
}

@Suite struct TrackerTests {
    @Test func identifiersFormatLikeTrackerAggregator() {
        let identifier = EventIdentifier(object: "Song", action: "Tapped", label: "More Info")
        #expect(identifier.formatted == "Song: Tapped - More Info")
        #expect(identifier.underscoredLowercased() == "song_tapped_more_info")
        #expect(EventIdentifier(object: "Song", action: "Played").formatted == "Song: Played")
    }

    @Test func itemsTrackedBeforeStartAreReplayedInTheirOriginalInterleavedOrder() async throws {
        let tracker = Tracker()
        let adapter = RecordingAdapter()
        tracker.track(SongTapped())
        tracker.update(PremiumMember(isPremium: false))
        tracker.track(ScreenShown())
        #expect(tracker.queuedCount == 3 && adapter.lines.isEmpty)
        try await tracker.start(adapters: [adapter]).wait()
        tracker.track(SongTapped())
        #expect(
            adapter.lines == [
                "configure", "event Song: Tapped - More Info", "property premium=false", "event Screen: Shown",
                "event Song: Tapped - More Info",
            ])
        #expect(tracker.queuedCount == 0 && tracker.isStarted)
    }

    @Test func propertyUpdatesDeliverTheirGeneratedEventsAfterTheProperty() async throws {
        let tracker = Tracker()
        let adapter = RecordingAdapter()
        try await tracker.start(adapters: [adapter]).wait()
        tracker.update(PremiumMember(isPremium: true))
        tracker.update(Nickname())
        #expect(adapter.lines == ["configure", "property premium=true", "event Screen: Shown", "property nickname=nil"])
    }

    @Test func eventRulesSelectByTypeAndByIdentifier() async throws {
        let onlySongs = RecordingAdapter(name: "songs", eventRule: .allow([.type(SongTapped.self)]))
        let noScreens = RecordingAdapter(name: "noScreens", eventRule: .prohibit([.identifier(object: "Screen")]))
        let byAction = RecordingAdapter(name: "byAction", eventRule: .allow([.identifier(action: "Shown")]))
        let tracker = Tracker()
        try await tracker.start(adapters: [onlySongs, noScreens, byAction]).wait()
        tracker.track(SongTapped())
        tracker.track(ScreenShown())
        #expect(onlySongs.lines == ["configure", "event Song: Tapped - More Info"])
        #expect(noScreens.lines == ["configure", "event Song: Tapped - More Info"])
        #expect(byAction.lines == ["configure", "event Screen: Shown"])
    }

    @Test func typeRulesMatchProtocolsToo() async throws {
        let adapter = RecordingAdapter(eventRule: .allow([.type((any TrackableEvent).self)]))
        let tracker = Tracker()
        try await tracker.start(adapters: [adapter]).wait()
        tracker.track(ScreenShown())
        #expect(adapter.lines.count == 2)
    }

    @Test func propertyRulesFilterPropertiesButTheirEventsFollowEventRules() async throws {
        let adapter = RecordingAdapter(propertyRule: .prohibit([.identifier("premium")]))
        let tracker = Tracker()
        try await tracker.start(adapters: [adapter]).wait()
        tracker.update(PremiumMember(isPremium: true))
        tracker.update(Nickname())
        #expect(adapter.lines == ["configure", "event Screen: Shown", "property nickname=nil"])
    }

    @Test func resultRulesSelectWithTaskPatterns() async throws {
        let selections = RecordingAdapter(name: "selections", resultRule: .allow([.match("did-select")]))
        let master = RecordingAdapter(name: "master", resultRule: .allow([.match("/master/*"), .match("/master/*/cell/*")]))
        let cells = RecordingAdapter(name: "cells", resultRule: .allow([.match("/*/tableView/cell/*")]))
        let relative = RecordingAdapter(name: "relative", resultRule: .prohibit([.match("button/did-select")]))
        let tracker = Tracker()
        try await tracker.start(adapters: [selections, master, cells, relative]).wait()
        tracker.track(result: ResultRecord(resultJSON: "1", event: "did-select", path: "/master/tableView/cell", time: 1))
        tracker.track(result: ResultRecord(resultJSON: "2", event: "did-appear", path: "/master", time: 2))
        tracker.track(result: ResultRecord(resultJSON: "3", event: "did-select", path: "/detail/button", time: 3))
        #expect(selections.lines == ["configure", "event /master/tableView/cell: did-select", "event /detail/button: did-select"])
        #expect(master.lines == ["configure", "event /master/tableView/cell: did-select", "event /master: did-appear"])
        #expect(cells.lines == ["configure", "event /master/tableView/cell: did-select"])
        #expect(relative.lines == ["configure", "event /master/tableView/cell: did-select", "event /master: did-appear"])
    }

    @Test func resultsBecomeEventsByDefault() async throws {
        let adapter = EventsOnlyAdapter()
        let tracker = Tracker()
        try await tracker.start(adapters: [adapter]).wait()
        tracker.track(result: ResultRecord(resultJSON: #"{"row":2}"#, event: "did-select", path: "/list/cell", time: 1))
        tracker.track(result: ResultRecord(resultJSON: "7", event: "did-appear", path: "/list", time: 2))
        #expect(adapter.events[EventIdentifier(object: "/list/cell", action: "did-select")] == ["row": 2])
        #expect(adapter.events[EventIdentifier(object: "/list", action: "did-appear")] == ["result": 7])
    }

    @Test func resetReachesEveryAdapterAndStopQueuesAgain() async throws {
        let adapter = RecordingAdapter()
        let tracker = Tracker()
        try await tracker.start(adapters: [adapter]).wait()
        tracker.reset()
        tracker.stop()
        tracker.track(ScreenShown())
        #expect(adapter.lines == ["configure", "reset"])
        #expect(tracker.queuedCount == 1 && !tracker.isStarted)
        try await tracker.start(adapters: [adapter]).wait()
        #expect(adapter.lines == ["configure", "reset", "configure", "event Screen: Shown"])
    }

    @Test func theQueueBeforeStartIsBoundedAndCountsWhatItDrops() async throws {
        let tracker = try Tracker(queueLimit: 2)
        let adapter = RecordingAdapter()
        tracker.track(SongTapped())
        tracker.track(ScreenShown())
        tracker.update(Nickname())
        #expect(tracker.droppedBeforeStart == 1)
        try await tracker.start(adapters: [adapter]).wait()
        #expect(adapter.lines == ["configure", "event Screen: Shown", "property nickname=nil"])
    }

    @Test func nothingIsLostOrStrandedWhenTrackingRacesWithStart() async throws {
        for _ in 0..<20 {
            let tracker = try Tracker(queueLimit: 10_000)
            let adapter = RecordingAdapter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask { for _ in 0..<100 { tracker.track(ScreenShown()) } }
                }
                group.addTask { try await tracker.start(adapters: [adapter]).wait() }
                try await group.waitForAll()
            }
            #expect(adapter.lines.count == 301)
            #expect(adapter.lines.first == "configure")
            #expect(tracker.queuedCount == 0)
        }
    }

    @Test func anAdapterMayTrackFromInsideACall() async throws {
        final class Echo: AnalyticsAdapter {
            let tracker: Tracker
            let seen = Mutex<[String]>([])
            init(tracker: Tracker) { self.tracker = tracker }
            func configure() { tracker.track(ScreenShown()) }
            func track(event: any TrackableEvent) {
                seen.withLock { $0.append(event.identifier.object) }
                if event is SongTapped { tracker.track(ScreenShown()) }
            }
            func track(property: any TrackableProperty) {}
        }
        let tracker = Tracker()
        let echo = Echo(tracker: tracker)
        tracker.track(SongTapped())
        try await tracker.start(adapters: [echo]).wait()
        #expect(echo.seen.withLock { $0 } == ["Song", "Screen", "Screen"])
    }

    @Test func resultsReachAdaptersThroughTheOutbox() async throws {
        let adapter = RecordingAdapter(resultRule: .allow([.match("did-select")]))
        let tracker = Tracker()
        try await tracker.start(adapters: [adapter]).wait()
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [TrackerDestination(tracker: tracker)], options: .testing())
        try await pipeline.append(makeResults(2) + makeResults(1, startingAt: 2, event: "did-appear"))
        await pipeline.flush()
        #expect(adapter.lines.count == 3)
        _ = await pipeline.finish()
    }
}
