import FocalEngine
import FocalJSON
import FocalOpLog
import Testing

/// What the HTML snapshot shows besides the tree: values, attributes, readable times, one event order.
@Suite("HTML snapshot content")
struct HTMLSnapshotContentTests {
    @Test("values with their first-displayed time, attributes, ISO 8601 UTC times, events oldest first, and a no-match line")
    func content() throws {
        let harness = try EngineHarness()
        harness.apply(
            register(root, under: nil, "app", attributes: ["sku": "tea-1"], time: 1_732_200_000_000),
            update(root, "title", "Tea", time: 1_732_200_000_000),
            appear(root, time: 1_732_200_001_500),
            record(root, "did-select", ["row": 2], time: 951_782_400_123))
        let page = harness.engine.snapshot(format: .html)
        #expect(page.contains("attributes <code>{&quot;sku&quot;:&quot;tea-1&quot;}</code>"), "\(page)")
        #expect(
            page.contains("<code>title</code> = <code>&quot;Tea&quot;</code> (first displayed <time datetime=\"2024-11-21T14:40:01.500Z\""),
            "\(page)")
        let updated = try #require(page.range(of: "<code>ana-updated</code> at <time datetime=\"2024-11-21T14:40:00.000Z\""))
        let appeared = try #require(page.range(of: "<code>ana-appeared</code>"))
        let selected = try #require(page.range(of: "<code>did-select</code> at <time datetime=\"2000-02-29T00:00:00.123Z\""))
        #expect(updated.lowerBound < appeared.lowerBound && appeared.lowerBound < selected.lowerBound)
        #expect(page.contains("id=\"no-match\""))
    }
}
