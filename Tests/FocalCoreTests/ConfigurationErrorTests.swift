import FocalCore
import Testing

@Suite("ConfigurationError and StoredThrough")
struct ConfigurationErrorTests {
    @Test("a value inside the range passes, the bounds included")
    func insideTheRange() throws {
        try ConfigurationError.check(1, in: FocalLimits.engineThreadsRange, "threads")
        try ConfigurationError.check(256, in: FocalLimits.engineThreadsRange, "threads")
        try ConfigurationError.check(Duration.seconds(600), in: FocalLimits.timeLimitRange, "timeLimit")
    }

    @Test("a value outside is refused, naming the setting, the range and the value; never clamped")
    func outsideTheRange() {
        #expect(throws: ConfigurationError(setting: "threads", message: "must be from 1 to 256, not 0")) {
            try ConfigurationError.check(0, in: FocalLimits.engineThreadsRange, "threads")
        }
        #expect(throws: ConfigurationError(setting: "maxSessions", message: "must be from 1 to 10000000, not 10000001")) {
            try ConfigurationError.check(10_000_001, in: FocalLimits.maxSessionsRange, "maxSessions")
        }
    }

    @Test("its description starts with the setting")
    func description() {
        #expect(
            ConfigurationError(setting: "jitter", message: "must be from 0.0 to 1.0, not 2.0").description
                == "jitter must be from 0.0 to 1.0, not 2.0")
    }

    @Test("a stored-through mark names its session, in its project, and its lines")
    func storedThrough() throws {
        let (id, key) = (try SessionID("u1"), try SessionKey(storageKey: "shop/u1"))
        let mark = StoredThrough(session: SessionKey(project: "shop", id: id), lines: 12)
        #expect(mark == StoredThrough(session: key, lines: 12))
        #expect(mark != StoredThrough(session: key, lines: 13))
        #expect(mark != StoredThrough(session: SessionKey(project: ProjectName.default, id: id), lines: 12))
    }
}
