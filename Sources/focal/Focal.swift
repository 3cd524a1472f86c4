#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import FocalRuntime
import Logging

/// The `focal` command.
@main
struct Focal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focal",
        abstract: "Headless UI analytics: replay op logs and scenarios through JavaScript tasks, and deliver the results.",
        discussion: """
            Focal keeps a tree of focus paths (/master/tableView/cell/detail) built from what a \
            UI does, and runs the tasks in a tasks directory whenever an event is recorded on \
            a node. Results are written as JSON lines on standard output; diagnostics and \
            console output go to standard error.

            Examples:
              focal replay --tasks tasks session.oplog
              cat session.oplog | focal replay --tasks tasks --debug
              focal snapshot --tasks tasks --format json session.oplog
              focal check tasks
              focal run --tasks tasks --snapshot Examples/scenarios/master-detail.yaml
              focal test Examples/scenarios
              focal replay --tasks tasks --deliver https://collector.example/v1/batch session.oplog
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch
            """,
        subcommands: [ReplayCommand.self, SnapshotCommand.self, CheckCommand.self, DeliverCommand.self, RunCommand.self, TestCommand.self]
    )

    /// Runs the command line. Exit status: 0 when all went well, 1 when errors were
    /// reported while processing, 2 when the command could not start.
    static func main() async {
        LoggingSystem.bootstrap { _ in DiagnosticLogHandler() }
        // One engine per process: keep JavaScriptCore's heap small and its footprint constant,
        // and let the time limit stop optimized code on any thread (see JSRuntime).
        JSRuntime.setProcessMemoryBudget(bytes: 32 << 20)
        setenv("JSC_usePollingTraps", "true", 0)
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            StandardStream.output.flush()
        } catch let code as ExitCode {
            StandardStream.output.flush()
            StandardStream.error.flush()
            Glibc.exit(code.rawValue)
        } catch {
            StandardStream.output.flush()
            let code = exitCode(for: error)
            if code == .success {
                StandardStream.output.writeLine(fullMessage(for: error))
                StandardStream.output.flush()
                Glibc.exit(0)
            }
            StandardStream.error.writeLine(fullMessage(for: error))
            StandardStream.error.flush()
            Glibc.exit(2)
        }
    }
}
