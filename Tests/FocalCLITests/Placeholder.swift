import Testing

@Test func placeholder_FocalCLITests() { #expect(Bool(true)) }
