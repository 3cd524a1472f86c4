import FocalPatterns
import Testing

@Suite struct PatternAutomatonTests {
    @Test("several patterns compile to one automaton that reports each one that matches")
    func finalPatterns() throws {
        let automaton = PatternAutomaton(try ["/a/b", "b", "*/b", "/", "/a/*/c"].map { try PathPattern($0) })
        #expect(automaton.finalPatterns(in: automaton.state(atPath: "/a/b")) == [0, 1, 2])
        #expect(automaton.finalPatterns(in: automaton.state(atPath: "/x/b")) == [1, 2])
        #expect(automaton.finalPatterns(in: automaton.state(atPath: "/b")) == [1])
        #expect(automaton.finalPatterns(in: automaton.rootState) == [3])
        #expect(automaton.finalPatterns(in: automaton.state(atPath: "/a/q/c")) == [4])
        #expect(!automaton.isFinal(automaton.state(atPath: "/a/q/c/d")))
    }

    @Test("names no pattern mentions are one symbol, so paths of unique names do not grow the automaton")
    func otherNames() throws {
        let automaton = PatternAutomaton([PathPattern("list/*/cell")])
        #expect(automaton.symbol(for: "cell") != PatternAutomaton.otherName)
        #expect(automaton.symbol(for: "row-17") == PatternAutomaton.otherName)
        _ = automaton.state(atPath: "/list/row-1/cell")
        let built = automaton.stateCount
        for i in 0..<100 { _ = automaton.state(atPath: "/list/row-\(i)/cell") }
        #expect(automaton.stateCount == built)
        #expect(automaton.isFinal(automaton.state(atPath: "/x/list/row-99/cell")))
    }

    @Test("a transition taken once is cached: the same step returns the same state")
    func cachedTransitions() throws {
        let automaton = PatternAutomaton([PathPattern("a/b")])
        let a = automaton.transition(from: automaton.rootState, name: "a")
        let built = automaton.stateCount
        #expect(automaton.transition(from: automaton.rootState, name: "a") == a)
        #expect(automaton.transition(from: automaton.rootState, symbol: automaton.symbol(for: "a")) == a)
        #expect(automaton.stateCount == built)
        #expect(automaton.isFinal(automaton.transition(from: a, name: "b")))
    }

    @Test("a pattern set answers the indices of the patterns that match, from any thread")
    func patternSet() async throws {
        let set = PatternSet(try ["tableView/cell", "/master/*", "cell"].map { try PathPattern($0) })
        let answers = await withTaskGroup(of: [Int32].self) { group in
            for _ in 0..<8 { group.addTask { set.matchingIndices("/master/tableView/cell") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: [0, 2], count: 8))
        #expect(set.matchingIndices("/master/x") == [1])
        #expect(set.matchingIndices("/detail").isEmpty)
    }
}
