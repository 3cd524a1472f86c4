import FocalAnalyzers
import Foundation
import Testing

@Suite struct ScrollBenchmarkTests {
    @Test func liveNodesAndCellsStayProportionalToTheVisibleRows() throws {
        let configuration = AnalyticsConfiguration(retainedRowLimit: 20)
        let result = try runScrollBenchmark(rows: 3_000, visibleRows: 10, configuration: configuration)
        // root, screen, table, then a row and a title node per displayed (11) or retained (20) row.
        #expect(result.maximumLiveNodes <= 3 + (11 + 20 + 1) * 2)
        #expect(result.cellsCreated <= 12)
        // Each row was registered once with its title, and recorded as appearing and disappearing.
        #expect(result.ops >= 3_000 * 4)
    }

    /// The benchmark of BENCHMARKS.md: `FOCAL_BENCHMARK=1 swift test --filter ScrollBenchmarkTests`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FOCAL_BENCHMARK"] != nil))
    func scrollAHundredThousandRows() throws {
        let baseline = try runScrollBenchmark(rows: 100_000, analyzed: false)
        print("scroll benchmark without analyzers: \(baseline)")
        let result = try runScrollBenchmark(rows: 100_000)
        print("scroll benchmark with analyzers: \(result)")
        #expect(result.maximumLiveNodes < 2_000)
    }
}
