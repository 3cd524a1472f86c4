import FocalCore
import FocalRuntime
import Testing

/// A runtime's limits are checked against `FocalLimits`' ranges and never adjusted: one out
/// of its range is a `ConfigurationError` naming it (issue 27).
@Suite("The runtime's limit ranges")
struct RuntimeLimitRangeTests {
    static let heap = FocalLimits.heapLimitRange
    static let time = FocalLimits.timeLimitRange

    @Test("a heap limit just outside its range is refused, naming it", arguments: [heap.lowerBound - 1, heap.upperBound + 1, 0, -1])
    func heapOutOfRange(bytes: Int) {
        let error = #expect(throws: ConfigurationError.self) { try JSRuntime(heapLimit: bytes) }
        #expect(error?.setting == "heapLimit")
        #expect(error?.message.contains("not \(bytes)") == true, "\(String(describing: error))")
    }

    @Test(
        "a time limit just outside its range is refused, naming it",
        arguments: [time.lowerBound - .nanoseconds(1), time.upperBound + .nanoseconds(1), .zero, .milliseconds(-5)])
    func timeOutOfRange(limit: Duration) {
        let error = #expect(throws: ConfigurationError.self) { try JSRuntime(timeLimit: limit) }
        #expect(error?.setting == "timeLimit")
    }

    @Test("the bounds of both ranges are accepted and kept as given", arguments: [heap.lowerBound, heap.upperBound])
    func heapBounds(bytes: Int) throws {
        for timeLimit in [Self.time.lowerBound, Self.time.upperBound] {
            let runtime = try JSRuntime(timeLimit: timeLimit, heapLimit: bytes)
            #expect(runtime.heapLimit == bytes)
            #expect(runtime.timeLimit == timeLimit)
            #expect(try runtime.number(runtime.evaluate("6 * 7")) == 42)
        }
    }

    @Test("setTimeLimit refuses a limit outside the range and keeps the one it had")
    func setTimeLimit() throws {
        let runtime = try JSRuntime(timeLimit: .seconds(2))
        for limit in [.zero, Self.time.upperBound + .milliseconds(1)] {
            let error = #expect(throws: ConfigurationError.self) { try runtime.setTimeLimit(limit) }
            #expect(error?.setting == "timeLimit")
            #expect(runtime.timeLimit == .seconds(2))
        }
        try runtime.setTimeLimit(Self.time.lowerBound)
        #expect(runtime.timeLimit == Self.time.lowerBound)
    }
}
