import Testing

@Test func placeholder_FocalScenariosTests() { #expect(Bool(true)) }
