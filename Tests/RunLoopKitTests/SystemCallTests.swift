import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

/// System calls: failures are reported with the call and errno, interruptions retried.
@Suite("System calls: typed errors, EINTR, descriptors epoll refuses")
struct SystemCallTests {
    @Test("Adding a descriptor that epoll refuses (a regular file) reports the call and errno")
    func regularFileIsRefused() throws {
        let loop = try RunLoop.make()
        let path = "/tmp/runloopkit-regular-\(getpid())"
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let source = RunLoop.FileDescriptorSource(fileDescriptor: descriptor) {}
        #expect(throws: SystemCallError(call: "epoll_ctl", errno: EPERM)) {
            try loop.watch(source, forMode: .common)
        }
        #expect(source.modes.isEmpty, "a refused source is in no mode")
        #expect(loop.run(until: loop.now) == .finished, "and does not keep the mode alive")
    }

    @Test("A descriptor source that epoll accepts is watched in every mode it was added to")
    func pipeIsWatched() throws {
        let loop = try RunLoop.make(timeSource: .virtual(VirtualClock()))
        loop.addCommonMode(.tracking)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var calls = 0
        let source = RunLoop.FileDescriptorSource(fileDescriptor: ends[0]) { calls += 1 }
        try loop.watch(source, forMode: .common)
        #expect(source.modes == [.default, .tracking])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(loop.run(mode: .tracking, until: .zero, returnAfterSourceHandled: true) == .handledSource)
        #expect(calls == 1)
    }

    @Test("A system call interrupted by a signal (EINTR) is retried; other failures throw with the call's name")
    func systemCallRetriesInterruptions() throws {
        var attempts = 0
        let result = try SystemCall.check("probe") { () -> Int32 in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && attempts == 3)
        #expect(throws: SystemCallError(call: "close", errno: EBADF)) {
            try SystemCall.check("close") { close(-1) }
        }
        #expect(SystemCallError(call: "close", errno: EBADF).description.contains("close"))
    }

    @Test("Creating a run loop without free descriptors throws a typed error naming the call")
    func creationWithoutDescriptorsThrows() async {
        await #expect(processExitsWith: .success) {
            guard useUpDescriptors() else { exit(2) }
            do throws(SystemCallError) {
                _ = try RunLoop.make()
                exit(1)
            } catch {
                exit(error.errno == EMFILE ? 0 : 1)
            }
        }
    }

    @Test("SignalSource without a free descriptor throws signalfd's error, as RunLoop.make does")
    func signalSourceWithoutDescriptorsThrows() async {
        await #expect(processExitsWith: .success) {
            guard useUpDescriptors() else { exit(1) }
            do throws(SystemCallError) {
                _ = try SignalSource(signals: [SIGUSR1]) { _ in }
                exit(1)
            } catch {
                exit(error.call == "signalfd" && error.errno == EMFILE ? 0 : 1)
            }
        }
    }

    @Test("RunLoop.current without free descriptors stops the process with a message naming the cause")
    func currentWithoutDescriptorsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            guard useUpDescriptors() else { exit(0) }
            touchCurrentRunLoop()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("EMFILE") || message.contains("Too many open files"))
    }
}

/// Reads the calling thread's run loop, creating it (a synchronous context, as `current` requires).
private func touchCurrentRunLoop() {
    _ = RunLoop.current
}

/// Lowers the descriptor limit to 32 and opens `/dev/null` until no descriptor is left, whichever
/// descriptors the (child) process already has; returns whether it got there.
private func useUpDescriptors() -> Bool {
    var limit = rlimit(rlim_cur: 32, rlim_max: 32)
    guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
    while open("/dev/null", O_RDONLY) >= 0 {}
    return errno == EMFILE
}
