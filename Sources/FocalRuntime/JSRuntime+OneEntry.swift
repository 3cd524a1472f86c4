import CJavaScriptCore

extension JSRuntime {
    /// Calls `step` until it returns `false`, inside one entry into the virtual machine: the
    /// calls and evaluations of the steps are nested in that entry instead of each entering.
    ///
    /// An entry costs the VM's lock and a system call that reads the thread's CPU clock for the
    /// time limit; a batch of task calls pays them once. Nothing else changes: a call made
    /// directly by a step counts as outermost, with the full time and heap limits, a runaway
    /// call is stopped and reported as before, and the promise jobs a call queues run right
    /// after it. One difference: a call may run up to one tick of the watchdog (an eighth of
    /// the time limit, between 5 and 100 ms) longer, since the tick it starts in began before it.
    ///
    /// JavaScriptCore forgets that it stopped a script only when the outermost entry ends, so
    /// after a step in which a call was stopped, the batch leaves its entry and enters again
    /// for the next step. A step must therefore make no call after one that may be stopped:
    /// host work that makes several calls asks for them to run outside the entry, after the
    /// step, with ``afterEntry(_:)``.
    ///
    /// What a step's op produces may come after the step returns: work handed to
    /// ``afterEntry(_:)`` runs between that step and the next.
    ///
    /// Where JavaScriptCore does not export what a batch needs (``VMLock``), and inside another
    /// entry or batch, the steps simply run, each call entering as usual.
    package func withOneEntry(_ step: () -> Bool) {
        // A way in: the steps, and the work they leave for after their entry, run on the thread inside.
        confinement.enter()
        defer { confinement.exit() }
        guard entryDepth == 0, batch.step == nil, let lock = VMLock.shared else {
            while step() {}
            return
        }
        withoutActuallyEscaping(step) { step in
            batch.step = step
            defer { batch = Batch() }
            let entry = batchEntry?.object ?? makeBatchEntry(lock)
            repeat {
                do {
                    _ = try call(entry, arguments: [])
                } catch {
                    // The entry runs no script of its own: every stop was reported by its call.
                    assertionFailure("a batch's own entry threw: \(error)")
                }
                let work = batch.outside
                batch.outside = []
                for item in work { item() }
            } while !batch.isFinished
        }
    }

    /// Whether calls run inside a ``withOneEntry(_:)`` batch, so that host work that would make
    /// more than one must hand them to ``afterEntry(_:)``.
    package var isBatching: Bool { batchDepth > 0 }

    /// Runs `work` right after the current step of the running batch, outside its entry (so
    /// each of its calls enters as usual), before the next step.
    package func afterEntry(_ work: @escaping () -> Void) {
        precondition(isBatching, "afterEntry outside a batch")
        batch.outside.append(work)
        batch.leavesEntry = true
    }

    private func makeBatchEntry(_ lock: VMLock) -> ScriptObject {
        // The runtime is read once per entry, not at every step (each read of an `unowned`
        // reference retains and releases it).
        let entry = makeFunction(name: "batch") { [unowned self] _, _ in
            runSteps(holding: lock)
            return nil
        }
        batchEntry = protect(entry)
        return entry
    }

    /// The body of the batch's entry: runs the steps until the last, or until one must leave the entry.
    private func runSteps(holding lock: VMLock) {
        batchDepth = entryDepth
        defer {
            batchDepth = 0
            batch.leavesEntry = false
            // A stop no call reported ended the entry; the entry's own call must not report it.
            watchdog.clearReason()
        }
        guard let step = batch.step else { return }
        lock.holding(group) {
            // A stop that no call reported (a getter stopped under a host read that ignores
            // exceptions) leaves the reason set: it ends the entry too.
            while !batch.leavesEntry, watchdog.lastReason == .none {
                guard step() else {
                    batch.isFinished = true
                    return
                }
            }
        }
    }
}

/// What a running ``JSRuntime/withOneEntry(_:)`` keeps.
struct Batch {
    /// The running batch's step.
    var step: (() -> Bool)?
    /// Whether the entry ends after the current step: a call was stopped in it (the next step
    /// needs a new one), or work waits to run outside it.
    var leavesEntry = false
    /// Whether the last step said there is none after it.
    var isFinished = false
    /// Work to run outside the entry after the current step (``JSRuntime/afterEntry(_:)``).
    var outside: [() -> Void] = []
}
