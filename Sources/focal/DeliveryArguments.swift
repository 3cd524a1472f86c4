#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import FocalDelivery

/// Options for sending results to destinations instead of standard output
/// (`shared/spec/delivery.md`).
struct DeliveryArguments: ParsableArguments {
    @Option(name: .customLong("deliver"), help: ArgumentHelp(
        "Send results to URL: http(s)://…, file:PATH (JSON Lines) or stdout. Repeatable.", valueName: "url"))
    var destinations: [String] = []

    @Option(name: .long, help: ArgumentHelp("The outbox, a SQLite database.", valueName: "path"))
    var store: String = ".focal/outbox.sqlite"

    @Option(name: .customLong("flush-at"), help: ArgumentHelp("Flush when this many results are pending.", valueName: "n"))
    var flushAt: Int = 20

    @Option(name: .customLong("flush-interval"), help: ArgumentHelp("Flush at least this often.", valueName: "seconds"))
    var flushInterval: Double = 30

    @Option(name: .customLong("drain-timeout"), help: ArgumentHelp(
        "At exit, wait at most this long for the outbox to drain; the rest stays in the store.", valueName: "seconds"))
    var drainTimeout: Double = 30

    func validate() throws {
        guard flushAt > 0 else { throw ValidationError("--flush-at must be at least 1") }
        guard flushInterval > 0 else { throw ValidationError("--flush-interval must be a positive number of seconds") }
        guard drainTimeout >= 0 else { throw ValidationError("--drain-timeout must not be negative") }
        for destination in destinations {
            do { _ = try DestinationAddress(parsing: destination) } catch { throw ValidationError("\(error)") }
        }
    }

    var isDelivering: Bool { !destinations.isEmpty }

    /// A pipeline on the store, for the given destinations; throws `ExitCode(2)` after
    /// saying why when it cannot be opened.
    func makePipeline() throws -> DeliveryPipeline {
        let directory = store.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { makeDirectories(directory) }
        let options = DeliveryOptions(
            flushAt: flushAt, flushInterval: .milliseconds(Int64(flushInterval * 1000)),
            drainTimeout: .milliseconds(Int64(drainTimeout * 1000)))
        do {
            return try DeliveryPipeline(storePath: store, destinations: destinations, options: options)
        } catch {
            StandardStream.error.writeLine("error: cannot open the outbox '\(store)': \(error)")
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
