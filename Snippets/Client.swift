// The code of the FocalClient article, compiled so that it cannot rot.
// `Scripts/check-snippets` checks that each code block is one of the slices below.

import FocalClient
import FocalOpLog

// snippet.record-and-send
// snippet.hide
func recordAndSend(directory: String) async throws {
    // snippet.show
    let queue = try OpQueue(directory: directory)  // e.g. Application Support/focal-queue
    let recorder = Recorder(queue: queue, session: "user-42")

    // On the UI thread: each call checks the op and buffers it, nothing more.
    let row = NodeID(owner: 5, keys: ["1"])  // a table row: keyed, so a reused cell keeps its state
    try recorder.register(1, parent: nil, name: "__root__")
    try recorder.register(2, parent: 1, name: "master", namespace: "Master.ViewController")
    try recorder.register(row, parent: 2, name: "cell", index: 1)
    try recorder.update(row, keyPath: "title", value: "Bananas")
    try recorder.record(row, event: "did-select")
    try recorder.flush()  // going to the background: wait until the ops are on disk

    // Anywhere: send what the queue holds, every line exactly once.
    let sender = Sender(queue: queue, configuration: SenderConfiguration(server: "https://focal.example", key: "pk_…"))
    try await sender.drain()
    try await sender.shutdown()
    // snippet.end
    try recorder.close()
}
