import FocalCore
import FocalJSON
import FocalRuntime

/// The keys file of `focal serve --keys FILE`: who may call the API, with which scopes, in
/// which project, at which rate, and where each project's tasks are.
///
/// ```json
/// {
///   "keys": [
///     {"name": "ios-app", "sha256": "<hex SHA-256 of the key>", "scopes": ["ingest"], "project": "shop",
///      "rateLimit": {"opsPerSecond": 50, "burst": 500}},
///     {"name": "web", "sha256": "…", "scopes": ["ingest"], "project": "shop", "publishable": true, "maxSessions": 200000},
///     {"name": "prometheus", "sha256": "…", "scopes": ["metrics"]}
///   ],
///   "projects": {"shop": {"tasks": "tasks/shop"}}
/// }
/// ```
///
/// The file holds only the SHA-256 of each key, never a key. Every size is checked on
/// read (``maxBytes``, ``maxKeys``, ``maxProjects``, `ProjectName.maxLength`,
/// ``maxTasksPathBytes``), and so is every member: an unknown member, a duplicate name or
/// hash, a project named by a key but not declared, a scope that does not exist, are all
/// refused with a message naming the file and the entry.
public struct KeysFile: Sendable, Hashable {
    /// One key's entry.
    public struct Key: Sendable, Hashable {
        /// The key's name, for logs and metrics (unique in the file).
        public var name: String
        /// The SHA-256 of the key's UTF-8 bytes (32 bytes).
        public var sha256: [UInt8]
        /// What the key may do.
        public var scopes: Set<AuthScope>
        /// The project whose sessions the key reaches.
        public var project: String
        /// The key's rate limit, if it has one: for a publishable key, each session's at each client address.
        public var rateLimit: RateLimit?
        /// Whether the key is shipped inside an app or a web page, so public (`"publishable": true`, the `ingest`
        /// scope only): its sessions (`--max-sessions-per-client`) are counted per client address and its rate limit
        /// per session at each address, never as one quota for the whole key.
        public var isPublishable: Bool
        /// A publishable key's ceiling on sessions (`"maxSessions"`): a fleet-wide figure, all its client addresses'
        /// sessions together; `nil` for none but the server's `--max-sessions`.
        public var maxSessions: Int?

        /// The range of ``maxSessions``.
        public static let maxSessionsRange = 1...100_000_000

        public init(
            name: String, sha256: [UInt8], scopes: Set<AuthScope>, project: String = ProjectName.default, rateLimit: RateLimit? = nil,
            isPublishable: Bool = false, maxSessions: Int? = nil
        ) {
            self.name = name
            self.sha256 = sha256
            self.scopes = scopes
            self.project = project
            self.rateLimit = rateLimit
            self.isPublishable = isPublishable
            self.maxSessions = maxSessions
        }
    }

    /// The keys, in the file's order.
    public var keys: [Key]
    /// Each declared project's tasks directory, a relative path in the file resolved against
    /// the file's directory. The `default` project is not declared: its tasks are `--tasks`.
    public var projects: [String: String]

    /// The largest keys file: 1 MiB.
    public static let maxBytes = 1 << 20
    /// The most keys in a file. Every request compares its key's hash with every entry, so
    /// the count bounds the work of a request.
    public static let maxKeys = 1_000
    /// The most declared projects; each one runs engines of its own.
    public static let maxProjects = 64
    /// The longest `tasks` path, in bytes.
    public static let maxTasksPathBytes = 4_096

    public init(keys: [Key], projects: [String: String] = [:]) {
        self.keys = keys
        self.projects = projects
    }

    /// Reads and checks the keys file at `path` (a regular file of at most ``maxBytes``).
    /// - Throws: ``KeysFileError`` naming the file and what is wrong.
    public static func load(path: String) throws(KeysFileError) -> KeysFile {
        let text: String
        do {
            text = try readTextFile(path, displayName: path, limit: maxBytes)
        } catch {
            throw KeysFileError(file: path, message: error.message.replacingPrefix("cannot read '\(path)': ", with: "cannot read it: "))
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0].isEmpty ? "/" : path[..<$0]) } ?? "."
        return try KeysFile(parsing: text, file: path, directory: directory)
    }

    /// The keys file in `text`; relative `tasks` paths are resolved against `directory`.
    /// - Parameters:
    ///   - text: the file's JSON.
    ///   - file: how messages name the file.
    ///   - directory: what relative `tasks` paths are resolved against.
    /// - Throws: ``KeysFileError`` naming `file` and what is wrong.
    public init(parsing text: String, file: String, directory: String) throws(KeysFileError) {
        func fail(_ message: String) -> KeysFileError { KeysFileError(file: file, message: message) }
        guard text.utf8.count <= Self.maxBytes else { throw fail("it is longer than \(Self.maxBytes) bytes") }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text)
        } catch {
            throw fail("line \(Self.line(at: error.offset, in: text)): not JSON: \(error.message)")
        }
        guard let object = root.objectValue else { throw fail("it must be a JSON object with \"keys\" and \"projects\"") }
        try Self.checkMembers(of: object, allowed: ["keys", "projects"], at: "the file", fail)

        var projects: [String: String] = [:]
        if let value = object["projects"] {
            guard let members = value.objectValue else { throw fail("\"projects\" must be an object of project names") }
            guard members.count <= Self.maxProjects else {
                throw fail("\"projects\" declares \(members.count) projects, more than the limit of \(Self.maxProjects)")
            }
            for (name, entry) in members {
                let place = "projects.\(Self.quoted(name))"
                if let problem = ProjectName.problem(with: name) { throw fail("\(place): the project name \(problem)") }
                guard name != ProjectName.default else {
                    throw fail("\(place): the 'default' project's tasks are --tasks; it cannot be declared")
                }
                guard let entry = entry.objectValue else { throw fail("\(place) must be an object like {\"tasks\": \"DIR\"}") }
                try Self.checkMembers(of: entry, allowed: ["tasks"], at: place, fail)
                guard let tasks = entry["tasks"]?.stringValue, !tasks.isEmpty else {
                    throw fail("\(place).tasks must be a non-empty string (a directory)")
                }
                guard tasks.utf8.count <= Self.maxTasksPathBytes, !tasks.utf8.contains(0) else {
                    throw fail("\(place).tasks is longer than \(Self.maxTasksPathBytes) bytes or holds a NUL byte")
                }
                projects[name] = tasks.hasPrefix("/") ? tasks : directory + "/" + tasks
            }
        }

        guard let list = object["keys"]?.arrayValue else { throw fail("\"keys\" must be an array of key entries") }
        guard list.count <= Self.maxKeys else {
            throw fail("\"keys\" holds \(list.count) keys, more than the limit of \(Self.maxKeys)")
        }
        var keys: [Key] = []
        var names = Set<String>()
        var hashes = Set<[UInt8]>()
        for (index, value) in list.enumerated() {
            let key = try Self.key(value, at: "keys[\(index)]", projects: projects, fail)
            guard names.insert(key.name).inserted else { throw fail("keys[\(index)]: the name '\(key.name)' is used twice") }
            guard hashes.insert(key.sha256).inserted else {
                throw fail("keys[\(index)] ('\(key.name)'): its sha256 is another entry's too (one key, two entries)")
            }
            keys.append(key)
        }
        self.init(keys: keys, projects: projects)
    }

    private static func key(
        _ value: JSONValue, at place: String, projects: [String: String], _ fail: (String) -> KeysFileError
    ) throws(KeysFileError) -> Key {
        guard let entry = value.objectValue else { throw fail("\(place) must be an object with name, sha256 and scopes") }
        try checkMembers(
            of: entry, allowed: ["name", "sha256", "scopes", "project", "rateLimit", "publishable", "maxSessions"], at: place, fail)
        guard let name = entry["name"]?.stringValue else { throw fail("\(place).name must be a string") }
        if let problem = ProjectName.problem(with: name) { throw fail("\(place).name \(problem)") }
        let place = "\(place) ('\(name)')"
        guard let hex = entry["sha256"]?.stringValue, let sha256 = Self.bytes(hex: hex) else {
            throw fail("\(place).sha256 must be the SHA-256 of the key as 64 hexadecimal digits (never the key itself)")
        }
        guard let list = entry["scopes"]?.arrayValue, !list.isEmpty else {
            throw fail("\(place).scopes must be a non-empty array of \(Self.scopeList)")
        }
        var scopes = Set<AuthScope>()
        for item in list {
            guard let text = item.stringValue, let scope = AuthScope(rawValue: text) else {
                throw fail(
                    "\(place).scopes: \(Self.quoted(item.stringValue ?? item.jsonString)) is not a scope; scopes are \(Self.scopeList)")
            }
            guard scopes.insert(scope).inserted else { throw fail("\(place).scopes: '\(scope)' is listed twice") }
        }
        var project = ProjectName.default
        if let value = entry["project"] {
            guard let text = value.stringValue else { throw fail("\(place).project must be a string") }
            guard text == ProjectName.default || projects[text] != nil else {
                throw fail("\(place).project: the project '\(text)' is not declared in \"projects\"")
            }
            project = text
        }
        var rateLimit: RateLimit?
        if let value = entry["rateLimit"] {
            guard let limit = value.objectValue else { throw fail("\(place).rateLimit must be an object with opsPerSecond and burst") }
            try checkMembers(of: limit, allowed: ["opsPerSecond", "burst", "bytesPerSecond", "bytesBurst"], at: "\(place).rateLimit", fail)
            guard let rate = limit["opsPerSecond"]?.numberValue, RateLimit.opsPerSecondRange.contains(rate) else {
                throw fail("\(place).rateLimit.opsPerSecond must be a number from 0.001 to 1000000")
            }
            guard let number = limit["burst"]?.numberValue, number.rounded() == number,
                Double(RateLimit.burstRange.lowerBound)...Double(RateLimit.burstRange.upperBound) ~= number
            else {
                throw fail("\(place).rateLimit.burst must be a whole number from 1 to 1000000")
            }
            rateLimit = RateLimit(opsPerSecond: rate, burst: Int(number))
            switch (limit["bytesPerSecond"], limit["bytesBurst"]) {
            case (nil, nil): break
            case (let bytesRate?, let bytesBurst?):
                guard let bytesRate = bytesRate.numberValue, RateLimit.bytesPerSecondRange.contains(bytesRate) else {
                    throw fail("\(place).rateLimit.bytesPerSecond must be a number from 1 to 1099511627776")
                }
                guard let bytesBurst = bytesBurst.numberValue, bytesBurst.rounded() == bytesBurst,
                    Double(RateLimit.bytesBurstRange.lowerBound)...Double(RateLimit.bytesBurstRange.upperBound) ~= bytesBurst
                else {
                    throw fail("\(place).rateLimit.bytesBurst must be a whole number from 1 to 1099511627776")
                }
                rateLimit?.bytesPerSecond = bytesRate
                rateLimit?.bytesBurst = Int(bytesBurst)
            default:
                throw fail("\(place).rateLimit: bytesPerSecond and bytesBurst go together")
            }
        }
        let (isPublishable, maxSessions) = try publishing(entry, scopes: scopes, at: place, fail)
        return Key(
            name: name, sha256: sha256, scopes: scopes, project: project, rateLimit: rateLimit, isPublishable: isPublishable,
            maxSessions: maxSessions)
    }

    /// An entry's `publishable` and `maxSessions`: a publishable key has the `ingest` scope alone, and only a
    /// publishable key has a `maxSessions`.
    private static func publishing(
        _ entry: JSONObject, scopes: Set<AuthScope>, at place: String, _ fail: (String) -> KeysFileError
    ) throws(KeysFileError) -> (Bool, Int?) {
        var isPublishable = false
        if let value = entry["publishable"] {
            guard let flag = value.boolValue else { throw fail("\(place).publishable must be true or false") }
            isPublishable = flag
        }
        if isPublishable, scopes != [.ingest] {
            let others = scopes.subtracting([.ingest]).map(\.rawValue).sorted().joined(separator: ", ")
            throw fail(
                "\(place): a publishable key is public (shipped inside an app), so it may have the ingest scope only, not \(others)")
        }
        guard let value = entry["maxSessions"] else { return (isPublishable, nil) }
        guard isPublishable else {
            throw fail(
                "\(place).maxSessions is a publishable key's fleet-wide ceiling; another key's sessions are held to "
                    + "--max-sessions-per-client")
        }
        let range = Key.maxSessionsRange
        guard let number = value.numberValue, number.rounded() == number, Double(range.lowerBound)...Double(range.upperBound) ~= number
        else {
            throw fail("\(place).maxSessions must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return (true, Int(number))
    }

    private static func checkMembers(
        of object: JSONObject, allowed: Set<String>, at place: String, _ fail: (String) -> KeysFileError
    ) throws(KeysFileError) {
        for key in object.keys where !allowed.contains(key) {
            throw fail("\(place): unknown member \(quoted(key)) (known: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private static var scopeList: String { AuthScope.allCases.map(\.rawValue).joined(separator: ", ") }

    /// 32 bytes from 64 hexadecimal digits.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = HexDigit.value(of: digits[index]), let low = HexDigit.value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// A name as messages show it: JSON-quoted, and cut after 64 bytes.
    private static func quoted(_ text: String) -> String {
        let cut = text.utf8.count > 64 ? String(decoding: text.utf8.prefix(64), as: UTF8.self) + "…" : text
        return JSONValue.string(cut).jsonString
    }

    /// The 1-based line of byte `offset` in `text`.
    private static func line(at offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}

/// A keys file that cannot be used: `focal serve` exits 2 with it at start, and keeps its
/// old keys (logging it) when a reload finds it.
public struct KeysFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given.
    public var file: String
    /// What is wrong, and where in the file.
    public var message: String

    public var description: String { "keys file '\(file)': \(message)" }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
