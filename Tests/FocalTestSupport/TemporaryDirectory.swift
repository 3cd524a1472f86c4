import Foundation

/// A temporary directory that a test fills with files; it is removed, with everything in it, when
/// the object is released (whether the test passes, fails or throws).
///
/// ```swift
/// let directory = try TemporaryDirectory(prefix: "focal-tasks-", files: ["index.js": "match('a', () => 1);"])
/// let lib = try directory.write("lib/price.js", "module.exports = 2;")
/// ```
///
/// For a test that needs no object to hand around, the `.scratchDirectory` trait
/// (``ScratchDirectory``) gives each test its own directory instead.
public final class TemporaryDirectory {
    /// The directory's absolute path (without a trailing slash).
    public let path: String

    /// Creates a new directory under `$TMPDIR`, named `prefix` and a UUID (`focal-cli-…`), holding
    /// `files` (paths relative to it, contents as text).
    public init(prefix: String, files: [String: String] = [:]) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
        for (relative, contents) in files { try write(relative, contents) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relative`.
    public func absolute(_ relative: String) -> String { path + "/" + relative }

    /// Creates the directory `relative` (and the directories above it) holding `files` (paths
    /// relative to it, contents as text) and returns its absolute path.
    @discardableResult
    public func makeDirectory(_ relative: String, files: [String: String] = [:]) throws -> String {
        let directory = absolute(relative)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, contents) in files { try write(relative + "/" + name, contents) }
        return directory
    }

    /// Writes (or replaces) the file at `relative`, creating the directories above it, and returns
    /// its absolute path.
    @discardableResult
    public func write(_ relative: String, _ contents: some DataProtocol) throws -> String {
        let file = absolute(relative)
        try makeDirectory((relative as NSString).deletingLastPathComponent)
        try Data(contents).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes (or replaces) the text file at `relative` (UTF-8), creating the directories above it,
    /// and returns its absolute path.
    @discardableResult
    public func write(_ relative: String, _ contents: String) throws -> String {
        try write(relative, Data(contents.utf8))
    }

    /// Creates a symbolic link at `relative` pointing to `destination`, creating the directories
    /// above it.
    public func link(_ relative: String, to destination: String) throws {
        try makeDirectory((relative as NSString).deletingLastPathComponent)
        try FileManager.default.createSymbolicLink(atPath: absolute(relative), withDestinationPath: destination)
    }
}
