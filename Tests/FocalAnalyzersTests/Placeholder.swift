import Testing

@Test func placeholder_FocalAnalyzersTests() { #expect(Bool(true)) }
