import Foundation

/// The repository's root directory.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The `focal` binary that tests run: `$FOCAL_BIN`, or the one built next to this test
/// bundle, or `.build/debug/focal` in the repository. The one lookup of every test target
/// that runs the command.
public let focalBinary: String = {
    if let path = ProcessInfo.processInfo.environment["FOCAL_BIN"] { return path }
    let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let sibling = here.appendingPathComponent("focal").path
    if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
    return repositoryRoot + "/.build/debug/focal"
}()
