import ArgumentParser
import FocalReplay
import FocalRuntime
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
              focal init shop && cd shop && focal test .
              focal check tasks
              focal run --tasks tasks --snapshot Examples/scenarios/master-detail.yaml
              focal test Examples/scenarios
              focal replay --tasks tasks --deliver https://collector.example/v1/batch session.oplog
              focal deliver --store .focal/outbox.sqlite --deliver https://collector.example/v1/batch
              focal serve --tasks tasks --port 8080 --deliver https://collector.example/v1/batch
            """,
        subcommands: [
            InitCommand.self, ReplayCommand.self, SnapshotCommand.self, CheckCommand.self, DeliverCommand.self, RunCommand.self,
            SendCommand.self,
            TestCommand.self,
            ServeCommand.self, KeysCommand.self,
        ]
    )

    /// The runtime flags of `command`, if it runs tasks. Nonisolated, so that the cast cannot pick a main-actor
    /// conformance and tie the command to the main actor, which `run()` would then be sending it away from.
    nonisolated private static func limits(of command: any ParsableCommand) -> RuntimeLimits? {
        (command as? any RunsTasks)?.limits
    }

    /// Runs the command line. Exit status: 0 when all went well, 1 when errors were
    /// reported while processing (or standard output could not be written), 2 when the
    /// command could not start, 141 when standard output was a pipe that closed early
    /// (as if killed by SIGPIPE, but after a clean shutdown and without a message).
    static func main() async {
        LoggingSystem.bootstrap { _ in DiagnosticLogHandler() }
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            // Before any runtime exists: JavaScriptCore reads its options once.
            configureJavaScriptCore(limits(of: command))
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            finish(0)
        } catch let code as ExitCode {
            finish(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                StandardStream.output.writeLine(fullMessage(for: error))
                finish(0)
            }
            StandardStream.output.flush()
            StandardStream.error.writeLine(fullMessage(for: error))
            finish(2)
        }
    }

    /// Sets the process's JavaScriptCore options from the command's runtime flags (the
    /// defaults for a command without them).
    private static func configureJavaScriptCore(_ limits: RuntimeLimits?) {
        let options = RuntimeLimits.javaScriptCoreOptions(
            heapLimit: limits?.heapLimit ?? RuntimeLimits.defaultHeapLimit, optimizingCompilers: limits?.optimizingCompilers ?? true)
        do {
            try JavaScriptCoreOptions.configure(options)
        } catch {
            StandardStream.error.writeError("\(error)")
            finish(2)
        }
    }

    /// Flushes both streams and exits with `code`, or with the status of a failed standard output.
    private static func finish(_ code: Int32) -> Never {
        StandardStream.output.flush()
        if let failure = StandardStream.output.failure {
            StandardStream.error.writeError("cannot write standard output: \(String(cString: strerror(failure)))")
            StandardStream.error.flush()
            Glibc.exit(max(code, 1))
        }
        StandardStream.error.flush()
        Glibc.exit(StandardStream.output.isClosed && code != 2 ? 141 : code)
    }
}
