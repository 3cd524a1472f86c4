extension VirtualClock {
    /// A point in virtual time: a number of milliseconds on the simulation's clock (often since the Unix epoch,
    /// see ``VirtualClock/init(start:)``).
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public typealias Duration = Swift.Duration

        /// The time in milliseconds.
        public var milliseconds: Int64

        /// The instant `milliseconds` milliseconds after the clock's zero.
        public init(milliseconds: Int64) {
            self.milliseconds = milliseconds
        }

        /// The instant `duration` later, rounded up to the next millisecond (a sleep never ends early) and
        /// clamped to the representable range.
        public func advanced(by duration: Duration) -> Instant {
            let (seconds, attoseconds) = duration.components
            let perMillisecond: Int64 = 1_000_000_000_000_000
            let fraction = attoseconds / perMillisecond + (attoseconds % perMillisecond > 0 ? 1 : 0)
            let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
            let (delta, overflow2) = whole.addingReportingOverflow(fraction)
            let (sum, overflow3) = milliseconds.addingReportingOverflow(delta)
            guard !overflow, !overflow2, !overflow3 else { return Instant(milliseconds: seconds < 0 ? .min : .max) }
            return Instant(milliseconds: sum)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            .milliseconds(other.milliseconds) - .milliseconds(milliseconds)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.milliseconds < rhs.milliseconds
        }

        /// The milliseconds, as a number.
        public var description: String { "\(milliseconds)" }
    }
}
