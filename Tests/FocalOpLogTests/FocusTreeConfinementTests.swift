import FocalCore
import Foundation
import Testing

@testable import FocalOpLog

/// A tree's members hold its `confinement` while they run, so a second thread using the tree meanwhile fails an
/// assertion in debug builds (FocalCoreTests show the predicates; these show the tree holds it where it must).
@Suite("Focus tree confinement")
struct FocusTreeConfinementTests {
    typealias Tree = FocusTree<Label>

    @Test(
        "the closures a tree calls run inside it, and the tree is free once its members return",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func membersHoldTheTree() throws {
        let tree = Tree()
        var held: [Bool] = []
        let registration = tree.register(1, name: "root", parent: nil) { _ in
            held.append(tree.confinement.isHeldByCurrentThread)
            return "root"
        }
        guard case .inserted(let root) = registration else { throw Failure.notInserted }
        tree.insert(NodeID(owner: 2, keys: ["a"]), name: "row", payload: "row", under: root)
        tree.walk(from: root) { _, _ in held.append(tree.confinement.isHeldByCurrentThread) }
        tree.removeSubtrees(withPrefix: 2) { _ in held.append(tree.confinement.isHeldByCurrentThread) }
        #expect(held == [true, true, true, true])
        #expect(!tree.confinement.isHeldByCurrentThread && tree.confinement.isFreeForCurrentThread)
    }

    @Test(
        "a second thread using a tree while another is inside it fails an assertion",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func secondThreadFails() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = Tree()
            let root = tree.insert(1, name: "root", payload: "root", under: Tree.none)
            let inside = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let shared = tree
            Thread {
                // Stays inside the tree (in a walk) for good.
                shared.walk(from: root) { _, _ in
                    inside.signal()
                    DispatchSemaphore(value: 0).wait()
                }
            }.start()
            inside.wait()
            _ = tree.lookup(1)  // the assertion stops the process here
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("a thread-confined object used by thread"), "\(message)")
    }

    enum Failure: Error { case notInserted }
}
