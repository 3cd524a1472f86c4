import FocalCore
import Foundation
import Testing

@testable import FocalPatterns

/// An automaton's members hold its `confinement` while they run, so a second thread using it meanwhile fails an
/// assertion in debug builds (FocalCoreTests show the predicates; these show the automaton holds it where it must).
@Suite("Pattern automaton confinement")
struct PatternAutomatonConfinementTests {
    @Test(
        "a path is run inside the automaton, which is free once the run returns",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func runHoldsTheAutomaton() {
        let automaton = PatternAutomaton(["list/*/cell"])
        let path = Probe(names: ["list", "row", "cell"]) { automaton.confinement.isHeldByCurrentThread }
        #expect(automaton.isFinal(automaton.state(at: path)))
        #expect(path.held == [true, true, true])
        #expect(!automaton.confinement.isHeldByCurrentThread && automaton.confinement.isFreeForCurrentThread)
    }

    @Test(
        "a second thread using an automaton while another is inside it fails an assertion",
        .enabled(if: ThreadConfinement.isChecking, "the checks are compiled out of release builds"))
    func secondThreadFails() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let automaton = PatternAutomaton([PathPattern("list/*/cell")])
            let inside = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let shared = automaton
            Thread {
                // Stays inside the automaton (running a path) for good.
                _ = shared.state(
                    at: Probe(names: ["list", "row"]) {
                        inside.signal()
                        DispatchSemaphore(value: 0).wait()
                        return true
                    })
            }.start()
            inside.wait()
            _ = automaton.transition(from: automaton.rootState, name: "list")  // the assertion stops the process here
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("a thread-confined object used by thread"), "\(message)")
    }
}

/// A path whose iteration reports, at each name, what `check` answers there (in ``held``).
final class Probe: Sequence {
    let names: [String]
    let check: () -> Bool
    private(set) var held: [Bool] = []

    init(names: [String], check: @escaping () -> Bool) {
        self.names = names
        self.check = check
    }

    func makeIterator() -> AnyIterator<String> {
        var remaining = names[...]
        return AnyIterator {
            guard let name = remaining.popFirst() else { return nil }
            self.held.append(self.check())
            return name
        }
    }
}
