/// The asynchronous sequence of a timer's events on a run loop behind ``RunLoop/Handle/ticks(every:tolerance:inModes:)``,
/// ``DisplayLink/frames`` and ``DispatchTimer/events`` (rule C-X3), which return it as
/// `some AsyncSequence<Element, Never> & Sendable`.
///
/// Each iteration starts its own timer on the loop's thread (at once when the iterating task runs
/// there, else at the loop's next pass) and stops it when the iteration ends — the loop is left,
/// the iterator is dropped, or the task is cancelled, which ends a waiting `next()` at once. At most
/// one element waits for a slow consumer: later ones merge into it by the element type's rule
/// (missed ticks add up), so nothing piles up.
///
/// ```swift
/// let ticks = loop.handle.ticks(every: .seconds(1), inModes: [.default])
/// Task(executorPreference: loop.taskExecutor) {
///     for await tick in ticks where tick.missedTicks > 0 { print("skipped", tick.missedTicks) }
/// }
/// ```
struct TimeSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Starts the timer on the loop's thread with a function that delivers an element; returns
    /// what stops the timer.
    typealias Start = @Sendable (RunLoop, _ deliver: @escaping (Element) -> Void) -> () -> Void

    private let handle: RunLoop.Handle
    private let merge: @Sendable (inout Element, Element) -> Void
    private let start: Start

    init(
        handle: RunLoop.Handle, merge: @escaping @Sendable (inout Element, Element) -> Void,
        start: @escaping Start
    ) {
        self.handle = handle
        self.merge = merge
        self.start = start
    }

    /// Starts an iteration and its timer.
    func makeAsyncIterator() -> Iterator {
        let events = TimeEvents<Element>(handle: handle, merge: merge)
        let start = self.start
        let begin: @Sendable (RunLoop) -> Void = { loop in
            let stop = start(loop) { events.yield($0) }
            events.started(stop: LoopBound(stop, on: loop))
        }
        if handle.isOnLoopThread {
            handle.jobs.withLoop(begin)
        } else {
            handle.execute(wake: true, begin)
        }
        return Iterator(iteration: Iteration(events: events))
    }

    /// Iterates a time sequence; dropping it stops the timer.
    struct Iterator: AsyncIteratorProtocol {
        let iteration: Iteration

        /// The next element, `nil` once the task is cancelled.
        mutating func next() async -> Element? {
            await iteration.events.next()
        }

        /// The next element, `nil` once the task is cancelled.
        mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await iteration.events.next()
        }
    }

    /// One iteration: ends the sequence when the iterator goes away.
    final class Iteration: Sendable {
        let events: TimeEvents<Element>

        init(events: TimeEvents<Element>) {
            self.events = events
        }

        deinit {
            events.finish()
        }
    }
}
