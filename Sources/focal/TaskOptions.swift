import ArgumentParser
import FocalEngine
import Logging

/// Options for commands that run tasks.
struct TaskOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The tasks directory: index.js and namespace files.", valueName: "dir"))
    var tasks: String

    @Flag(name: .long, help: "Reload task files when they change on disk (checked at every register).")
    var debug = false

    @Option(name: .customLong("time-limit"), help: ArgumentHelp("The longest a task call or task-file evaluation may run.", valueName: "ms"))
    var timeLimit: Int = 1000

    func validate() throws {
        guard timeLimit > 0 else { throw ValidationError("--time-limit must be a positive number of milliseconds") }
    }

    var engineConfiguration: EngineConfiguration {
        EngineConfiguration(
            tasksDirectory: tasks, debug: debug, timeLimit: .milliseconds(timeLimit),
            consoleLogger: Logger(label: "focal.console"))
    }
}

/// The op-log argument: a file, or standard input for `-` or nothing.
struct InputArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The op log (JSON Lines); standard input when '-' or absent.", valueName: "file"))
    var file: String?

    var path: String? { file == "-" ? nil : file }
}
