import FocalJSON
import Testing

/// ``LazyJSONObject`` made from a ``JSONObject`` (the text form is made by the op-log decoder and tested there).
@Suite("A lazy object made from an object")
struct LazyJSONObjectTests {
    @Test("it keeps the object as it is, reads its members and compares as the object does")
    func objectForm() {
        let object: JSONObject = ["key-path": "title", "value": ["a": [1, nil]]]
        let lazy = LazyJSONObject(object)
        #expect(lazy.text == nil)
        #expect(lazy.object == object)
        #expect(lazy.object.keys == ["key-path", "value"])
        #expect(lazy["value"] == ["a": [1, nil]])
        #expect(lazy["missing"] == nil)
        let (keyPath, value) = lazy.values(of: "key-path", and: "value")
        #expect(keyPath == "title" && value == ["a": [1, nil]])
        #expect(lazy == ["value": ["a": [1, nil]], "key-path": "title"])
        #expect(lazy != ["key-path": "title"])
        #expect(lazy.description == object.jsonString)
        #expect(LazyJSONObject().isEmpty && LazyJSONObject([:]).isEmpty && !lazy.isEmpty)
        #expect(LazyJSONObject() == LazyJSONObject(JSONObject()))
    }
}

@Suite("A lazy object's size")
struct LazyJSONObjectSizeTests {
    /// An engine keeps one in each event of each node's history: a seventeenth byte (an enum's case tag beside two full
    /// words) made every event eight bytes larger once aligned.
    @Test("it takes two words, whatever its form")
    func twoWords() {
        #expect(MemoryLayout<LazyJSONObject>.size == 16)
        #expect(MemoryLayout<LazyJSONObject?>.size == 16)
    }
}
