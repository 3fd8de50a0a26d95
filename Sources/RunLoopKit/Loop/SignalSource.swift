internal import CLinuxEvents
import Glibc

/// Delivers POSIX signals to a run loop as ordinary callouts, through a `signalfd`.
///
/// The signals are blocked so that the kernel queues them for the descriptor instead of running a
/// handler at an arbitrary point. Blocked signals are per thread: call ``block(_:)`` first thing in
/// `main`, before any thread starts, so every later thread inherits the mask.
///
/// ```swift
/// SignalSource.block([SIGINT, SIGTERM, SIGWINCH])
/// let signals = try SignalSource(signals: [SIGINT, SIGTERM, SIGWINCH]) { signal in handle(signal) }
/// loop.add(signals.source, forMode: .common)
/// ```
public final class SignalSource {
    /// The run loop source to add for the modes the signals should be handled in.
    public let source: RunLoop.FileDescriptorSource
    private let descriptor: Int32

    /// Blocks `signals` for the calling thread and the threads it starts from now on.
    public static func block(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Creates a source calling `handler` on the run loop's thread with each signal received.
    ///
    /// Throws when the kernel gives no descriptor (`EMFILE`, `ENFILE`, `ENOMEM`), as
    /// ``RunLoop/make(timeSource:)`` does: the same rule for every descriptor RunLoopKit opens.
    public init(signals: [Int32], handler: @escaping (Int32) -> Void) throws(SystemCallError) {
        Self.block(signals)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        let descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw SystemCallError(call: "signalfd", errno: cle_errno()) }
        self.descriptor = descriptor
        source = RunLoop.FileDescriptorSource(fileDescriptor: descriptor) {
            var info = signalfd_siginfo()
            while read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                handler(Int32(info.ssi_signo))
            }
        }
    }

    deinit {
        source.invalidate()
        close(descriptor)
    }
}
