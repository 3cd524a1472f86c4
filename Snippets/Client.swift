// The code of the FocalClient article, compiled so that it cannot rot.
// `Scripts/check-snippets` checks that each code block is one of the slices below.

import FocalClient
import FocalCore
import FocalOpLog

// snippet.record-and-send
// snippet.hide
func recordAndSend(directory: String) async throws {
    // snippet.show
    let queue = try OpQueue(directory: directory)  // e.g. Application Support/focal-queue
    let recorder = Recorder(queue: queue, session: try SessionID("user-42"))

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

// snippet.app-lifecycle
// snippet.hide
func appLifecycle(directory: String, publishableKey: String, userID: String) async throws {
    // snippet.show
    // At launch: the queue lives in the app's own storage and outlives the process.
    let queue = try OpQueue(directory: directory)
    let recorder = Recorder(queue: queue, session: try SessionID(userID))  // 1–256 bytes, or it throws
    let configuration = SenderConfiguration(server: "https://focal.example", key: publishableKey)
    let sender = Sender(queue: queue, configuration: configuration) { sentence in
        print("focal:", sentence)  // a refused line, a retry, a continued session: one sentence each
    }

    // In the UI code, on the main thread: checked and buffered, never a wait.
    try recorder.register(1, parent: nil, name: "__root__")
    try recorder.register(2, parent: 1, name: "detail", namespace: "Detail.ViewController")
    try recorder.update(2, keyPath: "title", value: "Bananas")
    try recorder.record(2, event: "did-tap-buy", properties: ["quantity": 2])
    try recorder.deregister(2)  // the screen is gone, and its subtree with it

    // Going to the background, in a background task: commit, then send what the queue holds.
    do {
        try recorder.flush()
        try await sender.drain()
    } catch SenderError.unauthorized(let status, let message) {
        print("focal: the key was refused (\(status)): \(message)")  // a configuration error; the queue is kept
    } catch {
        print("focal: sending later: \(error)")  // unreachable or refused: the queue is kept for the next drain
    }

    // At exit: end the session and commit it; what is still queued goes at the next launch's drain.
    try recorder.end()
    try recorder.close()
    try await sender.shutdown()
    // snippet.end
}
