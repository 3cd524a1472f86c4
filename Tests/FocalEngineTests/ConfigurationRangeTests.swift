import FocalCore
import FocalEngine
import FocalTestSupport
import Testing

/// A setting out of its range stops an engine from starting, with the typed error naming the
/// setting, its range and the value; nothing is clamped.
@Suite("Engine configuration ranges")
struct ConfigurationRangeTests {
    /// A setting out of range, the setting `ConfigurationError` names, and words its message must have.
    struct Case: Sendable, CustomStringConvertible {
        var setting: String
        var change: @Sendable (inout EngineConfiguration) -> Void
        var message: String
        var description: String { "\(setting): \(message)" }
    }

    static let cases: [Case] = [
        Case(setting: "maxSessions", change: { $0.maxSessions = 0 }, message: "must be from 1 to 10000000, not 0"),
        Case(setting: "maxSessions", change: { $0.maxSessions = 10_000_001 }, message: "not 10000001"),
        Case(setting: "maxSessions", change: { $0.maxSessions = -1 }, message: "not -1"),
        Case(setting: "maxSessionBytes", change: { $0.maxSessionBytes = (64 << 10) - 1 }, message: "not 65535"),
        Case(setting: "maxSessionBytes", change: { $0.maxSessionBytes = (1 << 40) + 1 }, message: "not 1099511627777"),
        Case(setting: "timeLimit", change: { $0.timeLimit = .zero }, message: "not 0.0 seconds"),
        Case(setting: "timeLimit", change: { $0.timeLimit = .seconds(600) + .milliseconds(1) }, message: "not 600.001 seconds"),
        Case(setting: "timeLimit", change: { $0.timeLimit = .milliseconds(-5) }, message: "not -0.005 seconds"),
    ]

    /// Expects `error` to be the configuration error of `setting`, its message with `message`.
    static func expect(_ error: EngineError?, setting: String, message: String) {
        #expect(error?.kind == .invalidConfiguration, "\(String(describing: error))")
        #expect(error?.configuration?.setting == setting)
        #expect(error?.configuration?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.message == error?.configuration?.description)
    }

    @Test("Engine(configuration:) throws for each setting out of range", arguments: cases)
    func engine(_ invalid: Case) throws {
        let tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": ""])
        var configuration = EngineConfiguration(tasksDirectory: tasks.path)
        invalid.change(&configuration)
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        let error = #expect(throws: EngineError.self) { _ = try Engine(configuration: configuration) }
        Self.expect(error, setting: invalid.setting, message: invalid.message)
    }

    @Test("EnginePool(configuration:threads:) throws for each setting out of range", arguments: cases)
    func pool(_ invalid: Case) async throws {
        let tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": ""])
        var configuration = EngineConfiguration(tasksDirectory: tasks.path)
        invalid.change(&configuration)
        let error = await #expect(throws: EngineError.self) { _ = try await EnginePool(configuration: configuration, threads: 1) }
        Self.expect(error, setting: invalid.setting, message: invalid.message)
    }

    @Test("Manager(configuration:delegate:) throws for a setting out of range")
    func manager() async throws {
        let tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": ""])
        let configuration = EngineConfiguration(tasksDirectory: tasks.path, maxSessions: 0)
        let error = await #expect(throws: EngineError.self) {
            _ = try await Manager(configuration: configuration, delegate: ManagerTests.Recorder())
        }
        Self.expect(error, setting: "maxSessions", message: "not 0")
    }

    @Test("a pool's threads out of range throw before any thread starts", arguments: [0, -1, 257])
    func threads(_ count: Int) async throws {
        let tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": ""])
        let error = await #expect(throws: EngineError.self) {
            _ = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: tasks.path), threads: count)
        }
        Self.expect(error, setting: "threads", message: "must be from 1 to 256, not \(count)")
        let groupError = #expect(throws: ConfigurationError.self) { _ = try EngineThreadGroup(count: count) }
        #expect(groupError?.setting == "threads")
    }

    @Test("the bounds of every range are accepted and behave as set")
    func bounds() async throws {
        let tasks = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": ""])
        for timeLimit in [FocalLimits.timeLimitRange.lowerBound, FocalLimits.timeLimitRange.upperBound] {
            let configuration = EngineConfiguration(tasksDirectory: tasks.path, timeLimit: timeLimit, maxSessions: 1)
            try configuration.validate()
            let observer = RecordingObserver()
            let engine = try Engine(configuration: configuration, observer: observer)
            #expect(engine.configuration.timeLimit == timeLimit)
            // maxSessions 1: one session besides the default one, not two.
            engine.apply(registerRoot, session: "a")
            engine.apply(registerRoot, session: "b")
            #expect(engine.sessionCount == 2)
            #expect(observer.errors.filter { $0.kind == .invalidOp }.map(\.session?.rawValue) == ["b"], "\(observer.errors)")
        }
        let range = FocalLimits.engineThreadsRange
        for threads in [range.lowerBound, range.upperBound] {
            let group = try EngineThreadGroup(count: threads)
            #expect(group.count == threads)
            await group.shutdown()
        }
    }
}
