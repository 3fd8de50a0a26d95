import Glibc
import RunLoopKit

extension DashboardPeer {
    /// Counts the dashboard's wake-ups and CPU over `duration` without touching the terminal.
    ///
    /// The benchmark sleeps through the whole window and reads the output only afterwards (the
    /// terminal buffers it): a reader woken by each write would preempt the dashboard on its CPU
    /// and add switches that are the benchmark's, not the dashboard's.
    static func idle(_ session: DashboardSession, scene: String, duration: Duration) -> DashboardIdleResult {
        session.terminal.readAvailable()
        let before = TaskCounters(pid: session.pid)
        let start = monotonicNanoseconds()
        let nanoseconds = duration.nanoseconds
        var request = Nanoseconds.timespec(nanoseconds)
        var left = timespec()
        // After a signal the sleep goes on for the time it had left.
        _ = retryingInterrupts {
            defer { request = left }
            return nanosleep(&request, &left)
        }
        let difference = TaskCounters(pid: session.pid).since(before)
        let elapsed = Nanoseconds.seconds(monotonicNanoseconds() - start)
        let bytes = session.terminal.readAvailable()
        return DashboardIdleResult(
            peer: name, scene: scene, seconds: elapsed,
            wakeUpsPerSecond: Double(difference.wakeUps) / elapsed,
            mainThreadWakeUpsPerSecond: Double(difference.mainThreadVoluntarySwitches) / elapsed,
            switchesPerSecond: Double(difference.voluntarySwitches + difference.involuntarySwitches) / elapsed,
            cpuMilliseconds: Nanoseconds.milliseconds(difference.cpuNanoseconds),
            threads: difference.threads, threadsEnded: difference.threadsEnded, bytesWritten: bytes)
    }
}
