import Dispatch
import RunLoopKit
import Synchronization

/// Runs timers' hooks on a background queue and reports each end on the loop's thread, through a
/// run loop source in the common modes (so a scroll gesture does not hold the reports back).
///
/// On a ``VirtualClock`` each running hook is outside work: the loop waits for it for real instead
/// of jumping its clock past it, so a headless run gives the same log every time.
final class HookRunner {
    /// A hook's end, waiting in the mailbox for the loop's thread.
    private struct Outcome: Sendable {
        var row: RowID
        var result: Hook.Result
    }

    private unowned let loop: RunLoop
    private let source: RunLoop.Source
    private let mailbox = Mailbox()
    private let groups = HookGroups()

    private final class Mailbox: Sendable {
        let outcomes = Mutex<[Outcome]>([])
    }

    /// A runner on `loop` reporting every hook's end to `onEnd`, on the loop's thread.
    init(loop: RunLoop, onEnd: @escaping (RowID, Hook.Result) -> Void) {
        self.loop = loop
        let mailbox = mailbox
        source = RunLoop.Source {
            for outcome in mailbox.outcomes.withLock({ outcomes in outcomes.drain() }) {
                onEnd(outcome.row, outcome.result)
            }
        }
        loop.add(source, forMode: .common)
    }

    deinit {
        source.invalidate()
    }

    /// Stops every running hook with what it started (their ends are reported as usual).
    func stopAll() {
        groups.stopAll()
    }

    /// Starts `hook` for `row` with `environment` on a background queue.
    func run(_ hook: Hook, for row: RowID, environment: [String: String]) {
        let work = loop.handle.beginExternalWork()
        let signal = source.signalHandle
        let mailbox = mailbox
        let groups = groups
        DispatchQueue.global().async {
            let result = hook.run(environment: environment, groups: groups)
            mailbox.outcomes.withLock { $0.append(Outcome(row: row, result: result)) }
            signal.signal()
            work.finish()
        }
    }
}

extension Array {
    /// Removes and returns every element.
    fileprivate mutating func drain() -> [Element] {
        defer { removeAll() }
        return self
    }
}
