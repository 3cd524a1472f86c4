import ArgumentParser
import FocalClient
import FocalReplay
import Foundation

/// The flags `focal send` and `focal run --send` share: the key, the queue's limit and the patience.
struct SendArguments: ParsableArguments {
    @Option(name: .customLong("key-file"), help: ArgumentHelp("A file holding the bearer key.", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("queue-limit"),
        help: ArgumentHelp("The queue's byte limit (1…1099511627776); past it the oldest whole sessions are dropped.", valueName: "bytes"))
    var queueLimit: Int = OpQueue.defaultByteLimit

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long a session's attempts may all fail (network, 429, 503, 5xx) before the command gives up with exit 4 (1…86400 seconds).",
            valueName: "seconds"))
    var patience: Double = 300

    func validate() throws {
        guard (1...(1 << 40)).contains(queueLimit) else {
            throw ValidationError("--queue-limit must be from 1 to 1099511627776 bytes, not \(queueLimit)")
        }
        guard patience.isFinite, (1...86400).contains(patience) else {
            throw ValidationError("--patience must be a number of seconds from 1 to 86400, not \(patience)")
        }
    }

    /// Checks that `url` is a server's base URL.
    static func validate(server url: String, flag: String) throws {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
            throw ValidationError("\(flag) must be an http(s)://host[:port] URL, not '\(url)'")
        }
    }

    /// The sender's configuration for `server`, with the key read from --key-file.
    func configuration(server: String) throws -> SenderConfiguration {
        var configuration = SenderConfiguration(server: server, key: try keyFile.map(Self.readKey))
        configuration.patience = .milliseconds(Int64(patience * 1000))
        return configuration
    }

    /// Opens the queue in `directory`, or says why not and exits 2.
    func openQueue(_ directory: String) throws -> OpQueue {
        do {
            return try OpQueue(directory: directory, byteLimit: queueLimit)
        } catch {
            StandardStream.error.writeError("the queue '\(directory)' cannot be opened: \(error)")
            throw ExitCode(2)
        }
    }

    /// A sender that reports on standard error, with progress at most once a second.
    static func sender(queue: OpQueue, configuration: SenderConfiguration) -> Sender {
        let meter = ProgressMeter()
        return Sender(
            queue: queue, configuration: configuration, report: { report($0.escapingLineBreaks) }, progress: { meter.show($0) })
    }

    /// Sends until `queue` is empty; the exit status: 0, or 3 (key refused), 4 (unreachable), 1 (another failure), each said on standard error.
    static func drain(_ sender: Sender, queue directory: String) async -> Int32 {
        do {
            try await sender.drain()
            return 0
        } catch {
            return failure(error, queue: directory)
        }
    }

    /// Says why sending stopped; its exit status: 3 when the key was refused, 4 when the server was unreachable, 1 otherwise.
    static func failure(_ error: any Error, queue directory: String) -> Int32 {
        guard let error = error as? SenderError else {
            StandardStream.error.writeError("the queue '\(directory)' failed: \(error)")
            return 1
        }
        StandardStream.error.writeError("\(error); the queue '\(directory)' keeps every line not sent")
        switch error {
        case .unauthorized: return 3
        case .unreachable: return 4
        case .refused: return 1
        }
    }

    /// Writes `focal send: message` on standard error.
    static func report(_ message: String) {
        StandardStream.error.writeLine("focal send: " + message)
        StandardStream.error.flush()
    }

    /// The key in `path`, without the spaces and line breaks around it.
    private static func readKey(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--key-file '\(path)': cannot read it")
        }
        let key = String(decoding: data.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ValidationError("--key-file '\(path)' must hold one key of printable ASCII characters")
        }
        return key
    }
}
