import ArgumentParser
import FocalCore
import FocalJSON
import FocalReplay
import FocalServer

/// `focal keys`: API keys for `focal serve --keys FILE`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make API keys for 'focal serve --keys FILE'.",
        subcommands: [NewKeyCommand.self]
    )
}

/// `focal keys new`: a new random key, printed once, and its entry for the keys file.
struct NewKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Print a new random key (256 bits, URL-safe) and the JSON entry to add to the keys file.",
        discussion: """
            Standard output gets two lines: the key, then its entry for the "keys" array of \
            the keys file, which holds only the key's SHA-256. The key is shown this once and \
            stored nowhere: give it to the client now. Add the entry to FILE and send the \
            server SIGHUP (or start it) to accept the key.

            Scopes: ingest (POST ops), read (GET snapshot), delete (DELETE session), metrics \
            (GET /metrics).

            Example:
              focal keys new --name ios-app --scopes ingest --project shop --ops-per-second 50 --burst 500
              focal keys new --name web --scopes ingest --publishable --max-sessions 200000
            """
    )

    @Option(name: .long, help: ArgumentHelp("The key's name, for logs and metrics (1…64 of A-Z a-z 0-9 - _ .).", valueName: "name"))
    var name: String

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("What the key may do: ingest, read, delete, metrics (several, or comma-separated).", valueName: "scope"))
    var scopes: [String]

    @Option(name: .long, help: ArgumentHelp("The project whose sessions the key reaches (default: default).", valueName: "name"))
    var project: String?

    @Option(name: .long, help: ArgumentHelp("A rate limit: ops per second (0.001…1000000), with --burst.", valueName: "rate"))
    var opsPerSecond: Double?

    @Option(name: .long, help: ArgumentHelp("A rate limit: the largest burst of ops (1…1000000), with --ops-per-second.", valueName: "n"))
    var burst: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A rate limit of request-body bytes per second (1…1099511627776), with --bytes-burst and --ops-per-second.", valueName: "rate"))
    var bytesPerSecond: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("The largest burst of request-body bytes (1…1099511627776), with --bytes-per-second.", valueName: "bytes"))
    var bytesBurst: Int?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "A key shipped inside an app (public): ingest only; its sessions count per client address, its rate limit per session."))
    var publishable = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --publishable: the most sessions of all the key's clients together, a fleet-wide ceiling (1…100000000).",
            valueName: "n"))
    var maxSessions: Int?

    /// The scopes as given, split at commas.
    private var scopeList: [String] {
        scopes.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }
    }

    func validate() throws {
        if let problem = ProjectName.problem(with: name) { throw ValidationError("--name \(problem)") }
        if let project, let problem = ProjectName.problem(with: project) { throw ValidationError("--project \(problem)") }
        let known = AuthScope.allCases.map(\.rawValue).joined(separator: ", ")
        guard !scopeList.isEmpty else { throw ValidationError("--scopes needs at least one of \(known)") }
        for scope in scopeList where AuthScope(rawValue: scope) == nil {
            throw ValidationError("--scopes: '\(scope)' is not a scope; scopes are \(known)")
        }
        guard Set(scopeList).count == scopeList.count else { throw ValidationError("--scopes lists a scope twice") }
        guard (opsPerSecond == nil) == (burst == nil) else {
            throw ValidationError("--ops-per-second and --burst go together")
        }
        if let opsPerSecond, !(opsPerSecond.isFinite && RateLimit.opsPerSecondRange.contains(opsPerSecond)) {
            throw ValidationError("--ops-per-second must be a number from 0.001 to 1000000, not \(opsPerSecond)")
        }
        if let burst, !RateLimit.burstRange.contains(burst) {
            throw ValidationError("--burst must be a whole number from 1 to 1000000, not \(burst)")
        }
        guard (bytesPerSecond == nil) == (bytesBurst == nil) else {
            throw ValidationError("--bytes-per-second and --bytes-burst go together")
        }
        guard bytesPerSecond == nil || opsPerSecond != nil else {
            throw ValidationError("--bytes-per-second and --bytes-burst need --ops-per-second and --burst")
        }
        if let bytesPerSecond, !(bytesPerSecond.isFinite && RateLimit.bytesPerSecondRange.contains(bytesPerSecond)) {
            throw ValidationError("--bytes-per-second must be a number from 1 to 1099511627776, not \(bytesPerSecond)")
        }
        if let bytesBurst, !RateLimit.bytesBurstRange.contains(bytesBurst) {
            throw ValidationError("--bytes-burst must be a whole number from 1 to 1099511627776, not \(bytesBurst)")
        }
        if publishable, scopeList != [AuthScope.ingest.rawValue] {
            throw ValidationError("--publishable: a publishable key is public (shipped inside an app), so --scopes must be ingest alone")
        }
        if let maxSessions {
            guard publishable else { throw ValidationError("--max-sessions is a publishable key's ceiling: it needs --publishable") }
            let range = KeysFile.Key.maxSessionsRange
            guard range.contains(maxSessions) else {
                throw ValidationError(
                    "--max-sessions must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(maxSessions)")
            }
        }
    }

    func run() throws {
        let key = APIKey.generate()
        var entry = JSONObject()
        entry["name"] = .string(name)
        entry["sha256"] = .string(key.sha256Hex)
        entry["scopes"] = .array(scopeList.map { .string($0) })
        if let project { entry["project"] = .string(project) }
        if let opsPerSecond, let burst {
            var limit: JSONObject = ["opsPerSecond": .number(opsPerSecond), "burst": .number(Double(burst))]
            if let bytesPerSecond, let bytesBurst {
                limit["bytesPerSecond"] = .number(bytesPerSecond)
                limit["bytesBurst"] = .number(Double(bytesBurst))
            }
            entry["rateLimit"] = .object(limit)
        }
        if publishable { entry["publishable"] = .bool(true) }
        if let maxSessions { entry["maxSessions"] = .number(Double(maxSessions)) }
        StandardStream.output.writeLine(key.secret)
        StandardStream.output.writeLine(JSONValue.object(entry).jsonString)
        StandardStream.error.writeLine(
            "The key (first line) is shown this once: give it to the client now. Add the entry (second line) to the keys file's \"keys\".")
    }
}
