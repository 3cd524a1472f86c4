import FocalEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replays one op log through one or more engines: the loop behind `replay` and `snapshot`.
///
/// Three kinds of threads work at once. An ``OpLogReader`` reads the log on a thread of its
/// own, and decodes it there for a single engine (several engines decode their own lines);
/// each engine applies its sessions' ops on its worker's thread (the default session lives
/// on the first engine); and one loop hands each engine its part of every chunk and writes
/// what the engines produced, chunk by chunk, merged back into input order, so the output is
/// the same whatever the number of engines: results to the sink, errors as `error: line N: …`,
/// snapshots and task `console.*` lines to standard error. With several engines and a
/// ``ReplayDriver`` the loop runs on the driver's thread, so every engine only applies ops
/// (an engine that also wrote fell ~10% behind the others); otherwise on the first engine's
/// thread, which takes its part of each chunk as the chunk arrives, without a hand-over. Input
/// is streamed (results reach the sink while it is still arriving) and errors never stop the run.
package struct OpLogReplay: Sendable {
    /// The engines; sessions are spread over them. The default session lives on the first.
    package let workers: [EngineWorker]
    /// Each engine's observer and console handler.
    private let collectors: [ReplayCollector]
    /// The most sessions live at once in the log, over all engines.
    private let maxSessions: Int
    /// Names the log in error lines when several logs are replayed at once.
    private let label: String?
    /// Where errors, snapshots and console lines go.
    private let diagnostics: StandardStream
    /// Where the loop runs with several engines, when the command has a driver; otherwise on the first engine.
    private let driver: ReplayDriver?

    /// Whether the end of the input ends every session (recording its end event), as in
    /// `focal replay`; `focal snapshot` shows the tree as the log leaves it, sessions still live
    /// (as a server's snapshot of the same session does).
    package let endsSessions: Bool

    /// Starts `engines` engines with `configuration` on `threads`, the loop over several on
    /// `driver` when given.
    /// - Throws: ``ReplayError/engineCannotStart(_:)`` when an engine cannot start.
    package init(
        threads: EngineThreadGroup, driver: ReplayDriver? = nil, engines: Int = 1, configuration: EngineConfiguration,
        label: String? = nil, diagnostics: StandardStream = .error, endsSessions: Bool = true
    ) async throws(ReplayError) {
        var workers: [EngineWorker] = []
        var collectors: [ReplayCollector] = []
        for _ in 0..<max(engines, 1) {
            let collector = ReplayCollector()
            var own = configuration
            own.consoleLogger = collector.consoleLogger
            own.logger = collector.engineLogger
            do {
                workers.append(try await threads.makeWorker(configuration: own))
            } catch {
                throw .engineCannotStart(error)
            }
            collectors.append(collector)
        }
        self.workers = workers
        self.collectors = collectors
        maxSessions = configuration.maxSessions
        self.label = label
        self.diagnostics = diagnostics
        self.endsSessions = endsSessions
        self.driver = workers.count > 1 ? driver : nil
    }

    /// Replays the log at `path` (standard input when `nil`) to its end and finishes the
    /// sink that `makeSink` makes (on the first worker's thread; `nil` discards results).
    /// Returns ``ReplayStatus/failed`` when an error was reported or results were lost.
    /// - Throws: ``ReplayError`` when the log cannot be opened or no thread can read it (nothing was replayed), or what
    ///   the sink threw.
    package func replay(
        path: String?, makeSink: @escaping @Sendable () async -> sending (any ResultSink)? = { nil }
    ) async throws -> ReplayStatus {
        let fd: Int32
        if let path {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw ReplayError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        } else {
            fd = 0
        }
        let progress = label == nil ? path.flatMap { Progress(path: $0, fileDescriptor: fd) } : nil
        let reader = OpLogReader(engineCount: workers.count, maxSessions: maxSessions)
        let chunks: HandOff<ReplayChunk>
        do {
            chunks = try reader.start(fileDescriptor: fd)
        } catch {
            throw ReplayError.cannotStartReader(error)
        }
        // Engines take their parts through streams, except that without a driver the first applies its own where
        // the chunks arrive.
        let streamed = driver == nil ? Array(workers.indices.dropFirst()) : Array(workers.indices)
        let inputs = streamed.map { _ in HandOff<EngineBatch>() }
        let outputs = streamed.map { _ in HandOff<EnginePart>() }
        let (label, diagnostics, workers, collectors, driver, endsSessions) = (
            label, diagnostics, workers, collectors, driver, endsSessions
        )
        return try await withThrowingTaskGroup(of: ReplayStatus?.self) { group in
            for (position, index) in streamed.enumerated() {
                let (worker, input, output, collector) = (
                    workers[index], inputs[position], outputs[position], collectors[index]
                )
                group.addTask {
                    await worker.run { worker in
                        while let batch = await input.next() {
                            output.yield(.items(collector.apply(batch, to: worker.engine)))
                            reader.recycle(batch)
                        }
                        if endsSessions, !StandardStream.output.isClosed { output.yield(.ends(collector.endOfInput(worker.engine))) }
                        output.finish()
                    }
                    return nil
                }
            }
            // The loop: hands out each chunk's batches, applies the first engine's (without a driver), and writes.
            @Sendable func drive(
                isolation: isolated (any Actor), applyingFirst applyFirst: ((EngineBatch) -> [NumberedItem])?,
                endingFirst endFirst: (() -> [SessionEndItems])?
            ) async throws -> ReplayStatus {
                defer {
                    reader.stop()
                    for input in inputs { input.finish() }
                }
                var writer = ChunkWriter(
                    output: ReplayOutput(sink: await makeSink(), diagnostics: diagnostics, label: label),
                    engineOutputs: outputs, reader: reader, progress: progress)
                while var chunk = await chunks.next() {
                    // The batches are moved, not copied, so that the reader releases them (`recycle`).
                    var batches = chunk.batches
                    chunk.batches = []
                    let own = applyFirst == nil ? nil : batches.removeFirst()
                    for input in inputs { input.yield(batches.removeFirst()) }
                    var firstItems: [NumberedItem] = []
                    if let own, let applyFirst {
                        firstItems = applyFirst(own)
                        reader.recycle(own)
                    }
                    guard try await writer.take(chunk, firstEngineItems: firstItems) else { break }
                }
                // The other engines end their sessions once their input is finished.
                for input in inputs { input.finish() }
                return try await writer.finish(firstEngineEnds: endFirst)
            }
            group.addTask {
                if let driver {
                    return try await driver.run { try await drive(isolation: $0, applyingFirst: nil, endingFirst: nil) }
                }
                return try await workers[0].run { first in
                    try await drive(
                        isolation: first, applyingFirst: { collectors[0].apply($0, to: first.engine) },
                        endingFirst: { endsSessions ? collectors[0].endOfInput(first.engine) : [] })
                }
            }
            var status = ReplayStatus.succeeded
            for try await result in group {
                if let result { status = result }
            }
            return status
        }
    }
}

/// Writes the chunks of a replay in input order, once every engine has applied its part:
/// with several engines, up to ``OpLogReader/window`` chunks are being applied while the
/// oldest is written.
private struct ChunkWriter {
    let output: ReplayOutput
    let engineOutputs: [HandOff<EnginePart>]
    let reader: OpLogReader
    var progress: Progress?
    /// Chunks handed to the engines and not yet written (without their batches), with what the first engine made
    /// of them.
    private var pending: [(chunk: ReplayChunk, firstEngineItems: [NumberedItem])] = []

    init(output: ReplayOutput, engineOutputs: [HandOff<EnginePart>], reader: OpLogReader, progress: Progress?) {
        self.output = output
        self.engineOutputs = engineOutputs
        self.reader = reader
        self.progress = progress
    }

    /// Takes a chunk whose batches went to the engines, and the first engine's items for it; writes the oldest
    /// chunks when the window is full or the input paused. Returns `false` when nobody reads the results any
    /// more (`| head`): the replay stops, as the contract's closed pipe allows.
    mutating func take(_ chunk: ReplayChunk, firstEngineItems: [NumberedItem]) async throws -> Bool {
        pending.append((chunk, firstEngineItems))
        // With other engines, their parts of the newest chunks are still being applied; with the first engine
        // alone, every chunk taken is ready.
        let keep = chunk.endsWithPause || engineOutputs.isEmpty ? 0 : OpLogReader.window - 1
        while pending.count > keep {
            guard try await writeOldest() else { return false }
        }
        return true
    }

    /// Writes what is left and the end of every session (the first engine's from
    /// `firstEngineEnds`, the others' from their streams), finishes the sink, and returns
    /// how the replay ended.
    mutating func finish(firstEngineEnds: (() -> [SessionEndItems])?) async throws -> ReplayStatus {
        var completed = true
        while !pending.isEmpty {
            guard try await writeOldest() else {
                completed = false
                break
            }
        }
        if completed, !StandardStream.output.isClosed {
            var parts = [firstEngineEnds?() ?? []]
            for index in engineOutputs.indices {
                if case .ends(let ends)? = await engineOutputs[index].next() { parts.append(ends) }
            }
            for end in SessionEndItems.merged(parts) {
                for item in end.items {
                    output.write(item.item)
                    if let sink = output.sink, sink.needsCommit { try await sink.commit() }
                }
            }
        }
        progress?.clear()
        guard let sink = output.sink else { return output.errorCount == 0 ? .succeeded : .failed }
        try await sink.commit()
        let lost = await sink.finish()
        return output.errorCount == 0 && !lost ? .succeeded : .failed
    }

    private mutating func writeOldest() async throws -> Bool {
        let (chunk, firstEngineItems) = pending.removeFirst()
        var sources = [chunk.problems, firstEngineItems]
        for index in engineOutputs.indices {
            if case .items(let items)? = await engineOutputs[index].next() { sources.append(items) }
        }
        guard !StandardStream.output.isClosed else {
            reader.stop()
            pending.removeAll()
            return false
        }
        for item in Self.merged(sources) {
            output.write(item.item)
            if let sink = output.sink, sink.needsCommit { try await sink.commit() }
        }
        progress?.advance(by: chunk.byteCount)
        if chunk.endsWithPause {
            try await output.sink?.commit()
            progress?.show()
        }
        reader.release()
        return true
    }

    /// The items of all sources in line order; each source is in line order already, and a
    /// line's items all come from one source.
    static func merged(_ sources: [[NumberedItem]]) -> [NumberedItem] {
        let nonEmpty = sources.filter { !$0.isEmpty }
        guard nonEmpty.count > 1 else { return nonEmpty.first ?? [] }
        var heads = Array(repeating: 0, count: nonEmpty.count)
        var merged: [NumberedItem] = []
        merged.reserveCapacity(nonEmpty.reduce(0) { $0 + $1.count })
        while true {
            var next: Int?
            for source in nonEmpty.indices where heads[source] < nonEmpty[source].count {
                if let best = next, nonEmpty[best][heads[best]].line <= nonEmpty[source][heads[source]].line { continue }
                next = source
            }
            guard let source = next else { return merged }
            merged.append(nonEmpty[source][heads[source]])
            heads[source] += 1
        }
    }
}
