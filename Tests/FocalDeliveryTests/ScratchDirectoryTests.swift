import FocalTestSupport
import Foundation
import Synchronization
import Testing

/// The `.scratchDirectory` trait the store tests rely on: a fresh directory while the scope
/// runs, gone afterwards however the test ends.
@Suite struct ScratchDirectoryTests {
    struct Thrown: Error {}

    /// Runs `body` in the trait's scope, as the test runner does, and returns the directory it had.
    func scoped(_ body: @escaping @Sendable (String) async throws -> Void) async throws -> String {
        let seen = LockedPath()
        try await ScratchDirectoryTrait.scratchDirectory.provideScope(for: try #require(Test.current), testCase: nil) {
            let path = try ScratchDirectory.current().path
            seen.set(path)
            try await body(path)
        }
        return try #require(seen.get())
    }

    @Test func aTestGetsAnEmptyDirectoryOfItsOwnUnderTMPDIR() async throws {
        let path = try await scoped { path in
            #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
            #expect(path.hasPrefix(FileManager.default.temporaryDirectory.path))
            let store = try ScratchDirectory.current().subdirectory(named: "store-")
            #expect(FileManager.default.fileExists(atPath: store))
            #expect(store.hasPrefix(path + "/store-"))
            #expect(try ScratchDirectory.current().subdirectory() != store)
            let inChild = await Task { try? ScratchDirectory.current().path }.value
            #expect(inChild == path, "child tasks see the test's directory")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "removed, with what was written in it")
    }

    @Test func theDirectoryGoesWhenTheTestThrows() async throws {
        let seen = LockedPath()
        await #expect(throws: Thrown.self) {
            _ = try await scoped { path in
                seen.set(path)
                try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/file"))
                throw Thrown()
            }
        }
        let path = try #require(seen.get())
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func withoutTheTraitThereIsNoDirectoryAndTheTestIsTold() throws {
        let error = try #require(throws: (any Error).self) { try ScratchDirectory.current() }
        #expect("\(error)".contains(".scratchDirectory"))
    }
}

/// A path set from inside a `@Sendable` closure.
final class LockedPath: Sendable {
    private let value = Mutex<String?>(nil)
    func set(_ path: String) { value.withLock { $0 = path } }
    func get() -> String? { value.withLock { $0 } }
}
