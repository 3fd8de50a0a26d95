import RunLoopKit

extension TimeControl {
    /// The dashboard's step key: moves time to the next fire date of `loop`'s current mode (or its
    /// default mode when it is not running) and returns it; `nil`, and no move, when nothing is
    /// scheduled there.
    @discardableResult
    func step(_ loop: RunLoop) -> Instant? {
        guard let next = loop.nextFireDate(forMode: loop.currentMode ?? .default), next != .distantFuture else {
            return nil
        }
        advance(to: next)
        return next
    }
}
