import Testing

@Test func placeholder_FocalRuntimeTests() { #expect(Bool(true)) }
