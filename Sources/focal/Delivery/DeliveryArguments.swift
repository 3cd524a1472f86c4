import ArgumentParser
import FocalDelivery
import FocalReplay
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options for sending results to destinations instead of standard output
/// (FocalDelivery article "Sending results"). Every number is range-checked before it becomes a
/// count or a duration; a bad value is a usage error (exit 2) naming its flag.
struct DeliveryArguments: ParsableArguments {
    @Option(
        name: .customLong("deliver"),
        help: ArgumentHelp(
            "Send results to URL: http(s)://…, file:PATH (JSON Lines) or stdout. Repeatable.", valueName: "url"))
    var destinations: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The outbox, a SQLite database; for focal serve and focal deliver also postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|require|verify-ca|verify-full[&sslrootcert=CA.pem][&sslcert=CLIENT.pem&sslkey=CLIENT.key]], shared by several instances (without sslmode: disable on loopback, verify-full elsewhere; sslcert and sslkey: a client certificate, for a server that asks for one).",
            valueName: "path|url"))
    var store: String = ".focal/outbox.sqlite"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Flush when this many results are pending (1…1000000).", valueName: "n"))
    var flushAt: Int = 20

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Flush at least this often (0.001…86400 seconds).", valueName: "seconds"))
    var flushInterval: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "At exit, wait at most this long for the outbox to drain (0…86400 seconds); the rest stays in the store.",
            valueName: "seconds"))
    var drainTimeout: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most results the outbox holds (1…100000000); at the limit the run waits for delivery.", valueName: "n"))
    var outboxLimit: Int = 1_000_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "When the outbox is full and a destination has failed for this long (0…86400 seconds), evict the oldest results instead of waiting. Default: never evict.",
            valueName: "seconds"))
    var evictAfter: Double?

    /// The accepted ranges, shown in errors and `--help`.
    static let flushAtRange = 1...1_000_000
    static let flushIntervalRange = 0.001...86_400.0
    static let drainTimeoutRange = 0.0...86_400.0
    static let outboxLimitRange = 1...100_000_000
    static let evictAfterRange = 0.0...86_400.0

    func validate() throws {
        guard Self.flushAtRange.contains(flushAt) else {
            throw ValidationError("--flush-at must be a whole number from 1 to 1000000, not \(flushAt)")
        }
        try Self.check(flushInterval, in: Self.flushIntervalRange, flag: "--flush-interval")
        try Self.check(drainTimeout, in: Self.drainTimeoutRange, flag: "--drain-timeout")
        guard Self.outboxLimitRange.contains(outboxLimit) else {
            throw ValidationError("--outbox-limit must be a whole number from 1 to 100000000, not \(outboxLimit)")
        }
        if let evictAfter { try Self.check(evictAfter, in: Self.evictAfterRange, flag: "--evict-after") }
        for destination in destinations {
            do { _ = try DestinationAddress(parsing: destination) } catch { throw ValidationError("--deliver: \(error)") }
        }
    }

    static func check(_ seconds: Double, in range: ClosedRange<Double>, flag: String) throws {
        guard seconds.isFinite, range.contains(seconds) else {
            throw ValidationError(
                "\(flag) must be a number of seconds from \(range.lowerBound.formatted) to \(range.upperBound.formatted), not \(seconds)")
        }
    }

    /// ``check(_:in:flag:)`` against a library's range of durations (a `ServerConfiguration`'s),
    /// so that the flag accepts what the library does, in seconds.
    static func check(_ seconds: Double, in range: ClosedRange<Duration>, flag: String) throws {
        try check(seconds, in: Self.seconds(range.lowerBound)...Self.seconds(range.upperBound), flag: flag)
    }

    /// `duration` in seconds.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    var isDelivering: Bool { !destinations.isEmpty }

    /// `seconds` (already range-checked) as a duration, to the microsecond.
    static func duration(_ seconds: Double) -> Duration {
        .microseconds(Int64((seconds * 1_000_000).rounded()))
    }

    /// The pipeline options these arguments ask for.
    var options: DeliveryOptions {
        var options = DeliveryOptions(
            flushAt: flushAt, flushInterval: Self.duration(flushInterval), drainTimeout: Self.duration(drainTimeout),
            outboxLimits: OutboxLimits(maxCount: outboxLimit))
        options.overflow = OverflowPolicy(evictAfter: evictAfter.map(Self.duration))
        return options
    }

    /// The PostgreSQL URL `--store` names (`postgres://…` or `postgresql://…`), or `nil` for a SQLite path.
    var postgresURL: String? {
        let lowercased = store.lowercased()
        return lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") ? store : nil
    }

    /// A pipeline from `outbox` (an open PostgreSQL store's) to the given destinations.
    func makePipeline(outbox: any Outbox) async throws -> DeliveryPipeline {
        do {
            return try await DeliveryPipeline(outbox: outbox, addresses: destinations, options: options, logger: logger)
        } catch {
            StandardStream.error.writeError("cannot deliver from the PostgreSQL outbox: \(error)")
            throw ExitCode(2)
        }
    }

    private var logger: Logger {
        var logger = Logger(label: "focal.delivery")
        logger.logLevel = .warning
        return logger
    }

    /// A pipeline on the SQLite store, for the given destinations; throws `ExitCode(2)`
    /// after saying why when it cannot be opened.
    func makePipeline() async throws -> DeliveryPipeline {
        if postgresURL != nil {
            StandardStream.error.writeError(
                "--store: a PostgreSQL store is for focal serve and focal deliver; give this command a SQLite path")
            throw ExitCode(2)
        }
        let directory = store.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { makeDirectories(directory) }
        do {
            return try await DeliveryPipeline(storePath: store, destinations: destinations, options: options, logger: logger)
        } catch {
            StandardStream.error.writeError("cannot open the outbox '\(store)': \(error)")
            throw ExitCode(2)
        }
    }

    private func makeDirectories(_ path: String) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o755)
        }
    }
}

extension Double {
    /// The number without a trailing `.0` (`86400`, `0.001`).
    fileprivate var formatted: String {
        self == rounded() ? String(Int64(self)) : String(self)
    }
}
