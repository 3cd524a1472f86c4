import Logging
import Synchronization

/// Rate-limits a recurring log message, as swift-log's guidance asks of every warning or error that can repeat: the
/// 1st, 2nd, 4th, 8th… occurrence is logged at its level, the others at debug, so a steady failure says so a
/// logarithmic number of times and the debug log still has every one.
///
/// Keep one throttle per message (it counts occurrences, safely from any thread), or, when something else already
/// counts them (failures in a row), ask ``level(_:forOccurrence:)``.
///
/// ```swift
/// let evictions = LogThrottle()
/// evictions.log(logger, .warning, "evicted the oldest results", metadata: ["focal.delivery.evicted": "\(removed)"])
/// ```
public final class LogThrottle: Sendable {
    private let occurrences = Atomic<Int>(0)

    /// A throttle that has counted nothing yet.
    public init() {}

    /// How many occurrences have been counted.
    public var count: Int { occurrences.load(ordering: .relaxed) }

    /// Whether the `occurrence`th occurrence (counting from 1) is one to show: the 1st, 2nd, 4th, 8th…
    public static func isShown(occurrence: Int) -> Bool {
        occurrence > 0 && occurrence & (occurrence - 1) == 0
    }

    /// `level` for the 1st, 2nd, 4th, 8th… occurrence (counting from 1), `.debug` for the others.
    public static func level(_ level: Logger.Level, forOccurrence occurrence: Int) -> Logger.Level {
        isShown(occurrence: occurrence) ? level : .debug
    }

    /// Counts one occurrence; returns its number and the level to log it at (see ``level(_:forOccurrence:)``).
    public func next(_ level: Logger.Level) -> (level: Logger.Level, occurrence: Int) {
        let occurrence = occurrences.add(1, ordering: .relaxed).newValue
        return (Self.level(level, forOccurrence: occurrence), occurrence)
    }

    /// Counts one occurrence and logs `message` at `level` or, between powers of two, at debug, with its number in
    /// the metadata as `focal.log.occurrence`.
    public func log(
        _ logger: Logger, _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata = [:],
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        let (level, occurrence) = next(level)
        guard logger.logLevel <= level else { return }
        var metadata = metadata()
        metadata["focal.log.occurrence"] = "\(occurrence)"
        logger.log(level: level, message(), metadata: metadata, file: file, function: function, line: line)
    }
}
