import Foundation

extension Process {
    /// Ends the child (`SIGTERM`, then `SIGKILL` if it is still there after `seconds`) and reaps it:
    /// a server that will not stop fails its owner's run instead of holding it up.
    package func stop(within seconds: Int) {
        if isRunning { terminate() }
        let giveUp = Date().addingTimeInterval(TimeInterval(seconds))
        while isRunning, Date() < giveUp { usleep(20_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
