import Testing

@Test func placeholder_FocalEventBusTests() { #expect(Bool(true)) }
