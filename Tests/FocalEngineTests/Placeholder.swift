import Testing

@Test func placeholder_FocalEngineTests() { #expect(Bool(true)) }
