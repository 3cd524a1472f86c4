import ArgumentParser
import FocalReplay

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `focal init`: writes a tasks directory that passes `focal test` as it is.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a tasks directory with an example task, a scenario that tests it, and TypeScript declarations.",
        discussion: """
            Writes index.js (tasks of a shop app), Shop/Detail.js (a namespace file), \
            scenarios/shop.yaml (a journey and the results it must produce), focal.d.ts (the \
            declarations of the task API) and jsconfig.json (so that editors and \
            'tsc -p jsconfig.json' type-check the task files). Existing files are never \
            overwritten: when one of them exists, nothing is written.

            Exit status: 0 when every file was written, 2 when one exists or cannot be written.

            Example:
              focal init shop && cd shop && focal test .
            """
    )

    @Argument(help: ArgumentHelp("The directory to create or fill (default: the current directory).", valueName: "dir"))
    var directory: String = "."

    func run() throws {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let existing = InitTemplate.files.map { base + $0.path }.filter { access($0, F_OK) == 0 }
        guard existing.isEmpty else {
            StandardStream.error.writeError(
                "'\(existing[0])' exists; focal init writes into a directory without its files (nothing was written)")
            throw ExitCode(2)
        }
        for file in InitTemplate.files {
            let path = base + file.path
            do {
                try Self.makeParents(of: path)
                try Self.write(file.bytes, to: path)
            } catch let failure as WriteFailure {
                StandardStream.error.writeError("cannot write '\(failure.path)': \(String(cString: strerror(failure.code)))")
                throw ExitCode(2)
            }
            StandardStream.output.writeLine("created \(path)")
        }
        StandardStream.output.writeLine("next: cd \(directory) && focal test .")
    }

    private struct WriteFailure: Error {
        var path: String
        var code: Int32
    }

    /// Creates every missing directory above `path`.
    private static func makeParents(of path: String) throws {
        var prefix = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (i, part) in parts.enumerated() {
            prefix += (i == 0 ? "" : "/") + part
            guard !part.isEmpty, part != "." else { continue }
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw WriteFailure(path: prefix, code: errno) }
        }
    }

    /// Writes `text` to a new file at `path` (`O_EXCL`: never replaces a file).
    private static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteFailure(path: path, code: errno) }
        defer { close(fd) }
        var bytes = bytes[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw WriteFailure(path: path, code: errno) }
            bytes = bytes.dropFirst(written)
        }
    }
}
