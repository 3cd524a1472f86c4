import FocalSimulator
import Testing

@Suite struct AttachmentTests {
    private final class Note {
        let text: String
        init(_ text: String) { self.text = text }
    }

    private final class Tag {}

    @Test func aResponderKeepsOneAttachmentPerType() {
        let view = View()
        #expect(view[attachment: Note.self] == nil)
        view[attachment: Note.self] = Note("first")
        view[attachment: Tag.self] = Tag()
        view[attachment: Note.self] = Note("second")
        #expect(view[attachment: Note.self]?.text == "second")
        #expect(view[attachment: Tag.self] != nil)
        view[attachment: Note.self] = nil
        #expect(view[attachment: Note.self] == nil)
        #expect(view[attachment: Tag.self] != nil)
    }

    @Test func attachmentsLiveAsLongAsTheirResponder() {
        weak var note: Note?
        var view: View? = View()
        do {
            let attached = Note("kept")
            note = attached
            view?[attachment: Note.self] = attached
        }
        #expect(note?.text == "kept")
        view = nil
        #expect(note == nil)
    }
}

@Suite struct ItemIdentifierTests {
    @Test func listsGiveTheIdentifiersOfItemsThatAreNotDisplayed() {
        let (harness, table, _) = showTable(RowsModel(rows: 100))
        _ = harness
        #expect(table.itemIdentifier(at: IndexPath(row: 90, section: 0)) == "row 90")
        #expect(table.cellForRow(at: IndexPath(row: 90, section: 0)) == nil)
        #expect(table.itemIdentifier(at: IndexPath(row: 100, section: 0)) == nil)
    }
}
