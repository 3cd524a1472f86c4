import FocalDelivery
import Logging
import Testing

@Suite struct LoggingTests {
    @Test func trackerLogsEachDeliveryAtInfoWithMetadataOnlyAtDebug() {
        for (level, expectsMetadata) in [(Logger.Level.info, false), (.debug, true)] {
            let capture = LogCapture()
            let tracker = Tracker(logger: capture.logger(level: level))
            tracker.start(adapters: [RecordingAdapter()])
            tracker.track(SongTapped(song: "Intro"))
            tracker.update(Nickname())
            let lines = capture.logged.filter { $0.level == .info }
            #expect(
                lines.map(\.message) == [
                    "-[recording]: EVENT TRIGGERED - 'Song: Tapped - More Info'", "-[recording]: 'nickname' UPDATED TO 'nil'",
                ])
            #expect((lines.first?.metadata["song"] == "Intro") == expectsMetadata)
        }
    }

    @Test func aQuietTrackerLogsNothing() {
        let capture = LogCapture()
        let tracker = Tracker(logger: capture.logger(level: .notice))
        tracker.start(adapters: [RecordingAdapter()])
        tracker.track(SongTapped())
        #expect(capture.logged.isEmpty)
    }

    @Test func evictionIsNeverSilent() throws {
        let capture = LogCapture()
        let outbox = MemoryOutbox(limits: OutboxLimits(maxCount: 2), logger: capture.logger(level: .info))
        try outbox.append(makeResults(5))
        let warning = capture.logged.first { $0.level == .warning }
        #expect(warning?.message == "outbox full: evicted the oldest results")
        #expect(warning?.metadata["evicted"] == "3")
    }

    @Test func droppedBatchesAreLoggedAsErrors() async throws {
        let capture = LogCapture()
        let pipeline = try DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [ScriptedDestination(script: [.rejected("HTTP 401")])],
            options: .testing(), logger: capture.logger(level: .info))
        try await pipeline.append(makeResults(2))
        await pipeline.flush()
        _ = await pipeline.finish()
        let error = capture.logged.first { $0.level == .error }
        #expect(error?.metadata["reason"] == "HTTP 401" && error?.metadata["results"] == "2")
    }
}
