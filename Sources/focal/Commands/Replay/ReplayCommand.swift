import ArgumentParser
import FocalCore
import FocalEngine
import FocalReplay

/// `focal replay`: runs op logs through the tasks and prints their results.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay an op log through the tasks and print every result as a JSON line.",
        discussion: """
            Reads the op log (one JSON object per line: register, record, deregister, \
            snapshot, end) as a stream, so results appear while input is still arriving. \
            Standard output carries results and nothing else; errors go to standard error \
            as 'error: line N: …' and never stop the run.

            Ops that carry a 'session' act on that session's own tree and task state; their \
            results are written as {"session": ID, "result": VALUE}. An 'end' op releases a \
            session.

            Several files are replayed at once with --jobs, each on an engine of its own; \
            the results of each file are written together, in the order the files were \
            given, and its error lines start with the file name. With one file, --jobs N \
            spreads its sessions over N engines (one per core is a good choice); the \
            output is the same, in input order.

            With --deliver, results go through a durable outbox (--store) to HTTP \
            endpoints or files instead of standard output, and a summary (produced, \
            delivered, retried, pending, dropped) goes to standard error at exit.

            Exit status: 0 when every line was processed without error, 1 when any error \
            was reported or results were dropped, 2 when the command could not start.

            Examples:
              focal replay --tasks tasks session.oplog
              focal replay --tasks tasks --time-limit 200 - < session.oplog
              tail -f live.oplog | focal replay --tasks tasks --debug
              focal replay --tasks tasks --jobs 4 day1.oplog day2.oplog day3.oplog
              focal replay --tasks tasks --jobs $(nproc) many-sessions.oplog
              focal replay --tasks tasks --deliver https://collector.example/v1/batch session.oplog
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var delivery: DeliveryArguments

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Use this many engines (1–256): several files are replayed at once, each on an engine of its own; "
                + "the sessions of one file are spread over them.", valueName: "n"))
    var jobs: Int = 1

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most sessions live at once in a log (1–10000000); an op that would start one more is an error.", valueName: "n"))
    var maxSessions: Int = EngineConfiguration.defaultMaxSessions

    @Argument(help: ArgumentHelp("The op logs (JSON Lines); standard input when '-' or none.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        // The library's checks, so that the flags accept what the engines do.
        do throws(ConfigurationError) {
            try ConfigurationError.check(jobs, in: FocalLimits.engineThreadsRange, "threads")
            try engineConfiguration.validate()
        } catch {
            throw error.usageError(flags: ConfigurationError.engineFlags.merging(["threads": "--jobs"]) { $1 })
        }
        if files.count > 1, delivery.isDelivering {
            throw ValidationError("--deliver takes one op log per run; replay the files one after another")
        }
        if files.count > 1, files.contains("-") {
            throw ValidationError("standard input ('-') cannot be replayed together with other files")
        }
    }

    /// The engines' configuration: the task options and `--max-sessions`.
    private var engineConfiguration: EngineConfiguration {
        var configuration = options.engineConfiguration
        configuration.maxSessions = maxSessions
        return configuration
    }

    func run() async throws {
        let threads = try EngineThreadGroup(count: files.count > 1 ? min(jobs, files.count) : jobs)
        let driver = files.count <= 1 && jobs > 1 ? ReplayDriver() : nil
        defer {
            Task {
                await threads.shutdown()
                await driver?.shutdown()
            }
        }
        let configuration = engineConfiguration
        if files.count <= 1 {
            let path = files.first.flatMap { $0 == "-" ? nil : $0 }
            do {
                let replay = try await OpLogReplay(threads: threads, driver: driver, engines: jobs, configuration: configuration)
                let pipeline = delivery.isDelivering ? try await delivery.makePipeline() : nil
                let store = delivery.store
                throw ExitCode(
                    try await replay.replay(path: path) {
                        if let pipeline { await OutboxSink(pipeline: pipeline, store: store) } else { StandardOutputSink() }
                    })
            } catch let error as ReplayError {
                throw error.reported()
            }
        }
        throw try await replayConcurrently(files, threads: threads, configuration: configuration)
    }

    /// Replays every file on its own engine, `jobs` at a time. Each file's results and
    /// errors are spooled to temporary files and written out in the order of `files`.
    private func replayConcurrently(_ files: [String], threads: EngineThreadGroup, configuration: EngineConfiguration) async throws
        -> ExitCode
    {
        let statuses = try await withThrowingTaskGroup(of: (Int, ExitCode, Spool).self) { group in
            var next = 0
            var finished: [Int: (ExitCode, Spool)] = [:]
            var written = 0
            var statuses: [ExitCode] = []
            func start() async throws {
                let index = next
                next += 1
                let spool = try Spool()
                let replay: OpLogReplay
                do {
                    replay = try await OpLogReplay(
                        threads: threads, configuration: configuration, label: files[index], diagnostics: spool.errors)
                } catch {
                    throw error.reported()
                }
                group.addTask {
                    let status: ExitCode
                    do {
                        status = ExitCode(try await replay.replay(path: files[index]) { StandardOutputSink(stream: spool.output) })
                    } catch let error as ReplayError {
                        status = error.reported(on: spool.errors)  // said why in the spool; the other files go on
                    }
                    spool.output.flush()
                    spool.errors.flush()
                    return (index, status, spool)
                }
            }
            while next < min(jobs, files.count) { try await start() }
            while let (index, status, spool) = try await group.next() {
                finished[index] = (status, spool)
                if next < files.count { try await start() }
                while let (status, spool) = finished.removeValue(forKey: written) {
                    spool.copy()
                    statuses.append(status)
                    written += 1
                }
            }
            return statuses
        }
        if statuses.contains(where: { $0.rawValue == 2 }) { return ExitCode(2) }
        return statuses.allSatisfy { $0 == .success } ? .success : .failure
    }
}
