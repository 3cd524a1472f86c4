import Testing

@Test func placeholder_FocalDeliveryTests() { #expect(Bool(true)) }
