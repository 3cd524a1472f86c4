import Foundation
import Testing

/// A test's own temporary directory, removed when the test ends, whether it passes, fails or
/// throws: `@Suite(.scratchDirectory)` (or `@Test(.scratchDirectory)`) gives each test (each
/// case of a parameterized test) a fresh directory under `$TMPDIR`, and
/// ``ScratchDirectory/current()`` names it while the test runs, in its child tasks too.
///
/// ```swift
/// @Suite(.scratchDirectory) struct StoreTests {
///     @Test func reopens() throws {
///         let path = try ScratchDirectory.current().path + "/store.sqlite"
///         // … nothing to clean up …
///     }
/// }
/// ```
public struct ScratchDirectory: Sendable {
    /// The directory's absolute path (without a trailing slash).
    public let path: String

    @TaskLocal private static var scoped: ScratchDirectory?

    /// The running test's directory. Without the `.scratchDirectory` trait it throws (the test
    /// fails saying so) rather than make a directory that nothing would remove.
    public static func current() throws -> ScratchDirectory {
        guard let scoped else { throw Missing() }
        return scoped
    }

    /// Creates a new, empty directory inside this one (named `prefix` and a UUID) and returns its
    /// path, for a test that needs several (two stores).
    public func subdirectory(named prefix: String = "") throws -> String {
        let path = self.path + "/" + prefix + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `body` with a new directory named after the test's module (`FocalDeliveryTests-<UUID>`)
    /// as ``current()``, then removes it.
    static func withNew(for test: Test, _ body: () async throws -> Void) async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(test.id.moduleName)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try await $scoped.withValue(ScratchDirectory(path: url.path), operation: body)
    }

    private struct Missing: Error, CustomStringConvertible {
        var description: String { "no scratch directory: add the .scratchDirectory trait to the test or its suite" }
    }
}

/// The trait behind `.scratchDirectory`: a scope around each test case (see ``ScratchDirectory``).
public struct ScratchDirectoryTrait: SuiteTrait, TestTrait, TestScoping {
    /// Applied to a suite, it scopes each test case inside, never the suite as a whole.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ScratchDirectory.withNew(for: test, function)
    }
}

extension Trait where Self == ScratchDirectoryTrait {
    /// A fresh temporary directory for each test, removed when it ends (``ScratchDirectory``).
    public static var scratchDirectory: Self { ScratchDirectoryTrait() }
}
