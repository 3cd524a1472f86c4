import Testing

@Test func placeholder_FocalJSONTests() { #expect(Bool(true)) }
