import Testing

@Test func placeholder_FocalSimulatorTests() { #expect(Bool(true)) }
