import Testing

@Test func placeholder_FocalOpLogTests() { #expect(Bool(true)) }
