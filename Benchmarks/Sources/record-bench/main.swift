// record-bench: what FocalClient's `Recorder` costs the thread that records (an app's UI thread).
//
//     record-bench [OPS]
//
// Records OPS ops (1,000,000 by default) on the main thread, alternating a value update (`ana-updated`) and an
// event on a registered node, while the recorder's writer thread commits to a queue in a temporary directory. Prints
// the caller's wall and thread CPU time per op, then closes the recorder (every op committed) and prints the lines the
// queue holds. Around each timed burst the thread calls getppid(), a system call nothing else here makes: run under
// `strace -f`, the calling thread's system calls between two are the ones `record` made (./Scripts/bench record).
import FocalClient
import FocalOpLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let ops = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
guard (2...100_000_000).contains(ops) else {
    FileHandle.standardError.write(Data("error: OPS must be from 2 to 100000000\n".utf8))
    exit(2)
}
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("focal-record-bench-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: directory) }

/// This thread's CPU time in nanoseconds.
func threadCPU() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

let queue = try OpQueue(directory: directory)
let recorder = Recorder(queue: queue, session: "bench")
try recorder.register(1, parent: nil, name: "__root__")
try recorder.register(2, parent: 1, name: "item")
// The thread's id: /proc/thread-self links to PID/task/TID.
print("caller thread \(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self").split(separator: "/").last ?? "?")")
// In bursts of 50,000 ops (half the recorder's backlog limit, which a loop this tight outruns: it records faster than
// a disk commits), each followed by an untimed flush.
let burst = 50_000
var wallNanoseconds = 0.0
var cpu = 0
var recorded = 0
while recorded < ops {
    let count = min(burst, ops - recorded)
    let wallStart = ContinuousClock.now
    let cpuStart = threadCPU()
    _ = getppid()  // a timed burst starts
    for op in recorded..<(recorded + count) {
        if op % 2 == 0 {
            try recorder.update(2, keyPath: "count", value: .number(Double(op)))
        } else {
            try recorder.record(2, event: "ping")
        }
    }
    _ = getppid()  // the timed burst ended
    cpu += threadCPU() - cpuStart
    let wall = ContinuousClock.now - wallStart
    wallNanoseconds += Double(wall.components.seconds) * 1e9 + Double(wall.components.attoseconds) * 1e-9
    recorded += count
    try recorder.flush()
}
try recorder.close()
let held = try await queue.held()
print(
    String(
        format: "record: %d ops on the caller's thread, %.0f ns wall and %.0f ns of thread CPU per op; the queue holds %d lines",
        ops, wallNanoseconds / Double(ops), Double(cpu) / Double(ops), held.lines))
