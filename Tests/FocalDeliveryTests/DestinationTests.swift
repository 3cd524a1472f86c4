import FocalCore
import FocalDelivery
import FocalEventBus
import FocalJSON
import FocalTestSupport
import FocalTesting
import Foundation
import Testing

@Suite(.scratchDirectory) struct DestinationTests {
    @Test func addressesParse() throws {
        #expect(try DestinationAddress(parsing: "http://127.0.0.1:80/x") == .http("http://127.0.0.1:80/x"))
        #expect(try DestinationAddress(parsing: "HTTPS://example.com") == .http("HTTPS://example.com"))
        #expect(try DestinationAddress(parsing: "file:out/results.jsonl") == .file("out/results.jsonl"))
        #expect(try DestinationAddress(parsing: "stdout") == .standardOutput)
        #expect(try DestinationAddress(parsing: "-") == .standardOutput)
        #expect(throws: DeliveryConfigurationError.unsupportedAddress("ftp://x")) {
            try DestinationAddress(parsing: "ftp://x")
        }
        #expect(throws: DeliveryConfigurationError.unsupportedAddress("file:")) { try DestinationAddress(parsing: "file:") }
        #expect(try DestinationAddress(parsing: "http://[::1]:8080/x") == .http("http://[::1]:8080/x"))
        #expect(try DestinationAddress(parsing: "https://user@host:65535") == .http("https://user@host:65535"))
        for bad in [
            "http://127.0.0.1:65536/x", "http://h:0/", "http://h:/", "http://h:80x/", "http:///x", "http://",
            "http://h x/", "http://[::1/",
        ] {
            #expect(throws: DeliveryConfigurationError.self, "\(bad)") { try DestinationAddress(parsing: bad) }
        }
    }

    @Test func aJSONLinesFileReceivesEveryResultAsOneLine() async throws {
        let path = try temporaryStorePath().replacingOccurrences(of: "outbox.sqlite", with: "out/results.jsonl")
        var options = DeliveryOptions.testing()
        options.batchLimits = BatchLimits(maxCount: 3)
        let pipeline = try await DeliveryPipeline(storePath: nil, destinations: ["file:\(path)"], options: options)
        try await pipeline.append(makeResults(4))
        await pipeline.flush()
        try await pipeline.append(makeResults(3, startingAt: 4))
        let summary = await pipeline.finish()
        #expect(summary.delivered == 4 && summary.pending == 3, "finish does not drain without an exit policy")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let messages = try lines.map { try JSONValue(parsing: String($0)) }
        #expect(messages.compactMap { $0["result"]?["n"]?.integerValue } == [0, 1, 2, 3])
        #expect(messages.allSatisfy { $0["messageId"]?.stringValue != nil && $0["time"]?.integerValue != nil })
    }

    @Test func resultsCanBeObservedOnTheBus() async throws {
        let bus = EventBus()
        let recorder = EventRecorder(bus: bus, names: [ResultRecord.busEventName])
        let pipeline = try await DeliveryPipeline(
            outbox: MemoryOutbox(), destinations: [EventBusDestination(bus: bus)], options: .testing())
        let results = makeResults(3)
        try await pipeline.append(results)
        await pipeline.flush()
        #expect(recorder.events.compactMap(ResultRecord.init(busEvent:)) == results)
        #expect(recorder.events.allSatisfy { $0.arguments["messageId"]?.stringValue != nil })
        _ = await pipeline.finish()
    }

    @Test func aBusEventRoundTripsAResult() {
        let result = ResultRecord(result: ["a": [1, 2]], event: "did-select", path: "/m", time: 42)
        #expect(ResultRecord(busEvent: result.busEvent) == result)
        #expect(ResultRecord(busEvent: BusEvent("focal.result")) == nil)
    }
}
