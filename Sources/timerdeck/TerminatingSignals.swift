import Foundation
import Glibc

/// How a headless run ends on `SIGINT`, `SIGTERM` or `SIGHUP`: as the signal would have ended it,
/// after removing its temporary outbox directory (a run with `--outbox` keeps every committed
/// sample and unacknowledged batch in its file, as after `kill -9`).
enum TerminatingSignals {
    /// Starts a thread that waits for one of `signals`, removes `path` (if any), then lets the
    /// signal end the process.
    ///
    /// `signals` must already be blocked in every thread (``SignalSource/block(_:)`` first thing in
    /// `main`), so this thread's `sigwait` is the one that takes them.
    static func endProcess(on signals: [Int32], removing path: String?) {
        Thread.detachNewThread {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in signals { sigaddset(&set, signal) }
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { return }
            // The process is ending: a directory that cannot be removed has nobody left to tell.
            if let path { try? FileManager.default.removeItem(atPath: path) }
            signal(received, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, received)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(received)
        }
    }
}
