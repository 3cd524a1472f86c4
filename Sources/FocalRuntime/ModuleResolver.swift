import FocalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves CommonJS module ids to files, never leaving a root directory.
///
/// The algorithm is Node's, restricted to the root: relative ids (`./util`,
/// `../lib/x`) resolve against the requiring file's directory; an id that starts with `/`
/// names a path from the root, as if the root were `/` (``taskPath(_:)``); bare ids (`tool`) are
/// looked up in `node_modules` folders from that directory up to the root (not above);
/// a path is tried as a file, then with `.js` and `.json`, then as a directory through
/// its `package.json` `main` and then `index.js` / `index.json`. A result whose real
/// path (symbolic links resolved) is outside the root is refused.
public struct ModuleResolver: Sendable {
    /// The root directory, as a real absolute path without a trailing slash.
    public let root: String
    /// `root` and a slash: what every path inside the root starts with.
    private let rootPrefix: String

    /// - Throws: when `root` does not exist or is not a directory.
    public init(root: String) throws(ScriptError) {
        guard let real = realPath(root), isDirectory(real) else {
            throw ScriptError(name: "Error", message: "the tasks directory '\(root)' does not exist or is not a directory")
        }
        guard let directory = opendir(real) else {
            throw ScriptError(name: "Error", message: "cannot read the tasks directory '\(root)': \(String(cString: strerror(errno)))")
        }
        closedir(directory)
        self.root = real
        rootPrefix = real + "/"
    }

    /// The path of `path` as messages, stack traces and snapshots show it: relative to the
    /// root (`index.js`, `lib/price.js`; `.` for the root itself), so that no message shows
    /// where the tasks are on the machine. A path outside the root is shown as its last
    /// component.
    public func displayPath(_ path: String) -> String {
        if path == root { return "." }
        if path.hasPrefix(rootPrefix) { return String(path.dropFirst(rootPrefix.count)) }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The path of `path` (inside the root) as task code sees it in `__filename`, `__dirname`,
    /// `module.filename` and what `require.resolve` returns: as if the root were the file
    /// system's root (`/lib/price.js`, `/` for the root itself), so that no task learns where
    /// the tasks are on the machine, and a path it is given still works as a `require` id
    /// (an id that starts with `/` is such a path).
    public func taskPath(_ path: String) -> String {
        path == root ? "/" : "/" + displayPath(path)
    }

    /// The absolute path of a file named relative to the root.
    public func absolutePath(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : root + "/" + relative
    }

    /// Resolves `id` required from a file in `directory` (an absolute path inside the root).
    public func resolve(_ id: String, from directory: String) throws(ScriptError) -> String {
        guard !id.isEmpty else { throw ScriptError(name: "Error", message: "require() needs a non-empty module id") }
        let found: String?
        if id == "." || id == ".." || id.hasPrefix("./") || id.hasPrefix("../") || id.hasPrefix("/") {
            let base = normalize((id.hasPrefix("/") ? root : directory + "/") + id)
            guard isInside(base) else { throw outside(id, directory) }
            found = try loadAsFileOrDirectory(base)
        } else {
            found = try resolveBare(id, from: directory)
        }
        guard let found else {
            throw ScriptError(name: "Error", message: "Cannot find module '\(id)' from '\(displayPath(directory))'")
        }
        guard let real = realPath(found), isInside(real) else { throw outside(id, directory) }
        return real
    }

    private func outside(_ id: String, _ directory: String) -> ScriptError {
        ScriptError(name: "Error", message: "Cannot require '\(id)' from '\(displayPath(directory))': it is outside the tasks directory")
    }

    private func resolveBare(_ id: String, from directory: String) throws(ScriptError) -> String? {
        var dir = normalize(directory)
        while isInside(dir) || dir == root {
            let candidate = dir + "/node_modules/" + id
            if let found = try loadAsFileOrDirectory(candidate) { return found }
            if dir == root { break }
            dir = parent(of: dir)
        }
        return nil
    }

    private func loadAsFileOrDirectory(_ path: String) throws(ScriptError) -> String? {
        if let file = loadAsFile(path) { return file }
        return try loadAsDirectory(path)
    }

    private func loadAsFile(_ path: String) -> String? {
        for candidate in [path, path + ".js", path + ".json"] where isFile(candidate) { return candidate }
        return nil
    }

    private func loadAsDirectory(_ path: String) throws(ScriptError) -> String? {
        guard isDirectory(path) else { return nil }
        if let main = try packageMain(path + "/package.json") {
            let target = normalize(path + "/" + main)
            if isInside(target), let found = loadAsFile(target) ?? loadIndex(target) { return found }
        }
        return loadIndex(path)
    }

    private func loadIndex(_ path: String) -> String? {
        for candidate in [path + "/index.js", path + "/index.json"] where isFile(candidate) { return candidate }
        return nil
    }

    /// The `main` of the `package.json` at `path`, or `nil` when there is none (no file, no
    /// `main`, or an empty one). A `package.json` that cannot be read or is not a JSON object
    /// is an error, as in Node: a typo there must not silently load another file.
    private func packageMain(_ path: String) throws(ScriptError) -> String? {
        guard exists(path) else { return nil }
        let text = try readTextFile(path, displayName: displayPath(path))
        let package: JSONValue
        do {
            package = try JSONValue(parsing: text)
        } catch {
            throw ScriptError(name: "Error", message: "Invalid package config '\(displayPath(path))': \(error)")
        }
        guard case .object = package else {
            throw ScriptError(name: "Error", message: "Invalid package config '\(displayPath(path))': not a JSON object")
        }
        switch package["main"] {
        case nil, .null: return nil
        case .string(let main): return main.isEmpty ? nil : main
        default: throw ScriptError(name: "Error", message: "Invalid package config '\(displayPath(path))': 'main' is not a string")
        }
    }

    func isInside(_ path: String) -> Bool {
        path.hasPrefix(rootPrefix)
    }
}

/// `path` with `.` and `..` segments and repeated slashes removed (purely lexical).
func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
        if part == "." { continue }
        if part == ".." {
            if !parts.isEmpty { parts.removeLast() }
            continue
        }
        parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
}

func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
}

func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}

func isFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// The largest file ``readTextFile(_:displayName:limit:)`` reads by default: 16 MiB.
public let maximumTextFileSize = 16 << 20

/// The contents of the UTF-8 text file at `path`.
///
/// Only a regular file of at most `limit` bytes is read: a FIFO, a device (such as a
/// link to `/dev/zero`), a directory or a larger file is refused before any byte is
/// read, so reading never blocks or grows without bound.
/// - Parameters:
///   - path: the file to read.
///   - displayName: how messages name the file.
///   - limit: the largest file read, in bytes.
/// - Throws: a ``ScriptError`` naming the file.
public func readTextFile(_ path: String, displayName: String, limit: Int = maximumTextFileSize) throws(ScriptError) -> String {
    func failure(_ reason: String) -> ScriptError {
        ScriptError(name: "Error", message: "cannot read '\(displayName)': \(reason)", file: displayName)
    }
    // Non-blocking, so that opening a FIFO does not wait for a writer.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("it is not a regular file") }
    guard Int(info.st_size) <= limit else {
        throw failure("it is \(info.st_size) bytes long, more than the limit of \(limit) bytes")
    }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while count < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw failure(String(cString: strerror(errno)))
        }
        if n == 0 { break }
        count += n
    }
    // The file grew while it was read.
    guard count <= Int(info.st_size) else { throw failure("it grew while it was read") }
    return String(decoding: bytes[0..<count], as: UTF8.self)
}
