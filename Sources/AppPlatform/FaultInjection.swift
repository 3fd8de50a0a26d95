import Glibc
import Synchronization

/// Seeded failures of `FileIO`'s calls on the paths under one directory, for tests: the way
/// SQLite's test harness fails its I/O on purpose, to show that no failure loses data, overwrites
/// a file or goes unsaid.
///
/// Each call on a path under the run's directory draws from a generator seeded by the run, so the
/// same seed fails the same calls in the same order. One call in ``oneIn`` fails with a fault that
/// the call can really meet: `EINTR` and `EAGAIN` (made again by the layer), `ENOSPC` and
/// `EMFILE` (reported to the caller), or a short write (the rest written next). Only paths under
/// the directory are touched, so tests running beside it in the same process see no fault.
public final class FaultInjection: Sendable {
    /// A fault the run can inject.
    public enum Fault: String, CaseIterable, Sendable {
        case interrupted = "EINTR"
        case wouldBlock = "EAGAIN"
        case noSpace = "ENOSPC"
        case tooManyFiles = "EMFILE"
        case shortWrite = "short write"

        /// The error number the call fails with; `nil` for a short write, which succeeds in part.
        public var errno: Int32? {
            switch self {
            case .interrupted: EINTR
            case .wouldBlock: EAGAIN
            case .noSpace: ENOSPC
            case .tooManyFiles: EMFILE
            case .shortWrite: nil
            }
        }
    }

    /// The calls of `FileIO` a fault can be injected into.
    public enum Call: Sendable {
        case open, read, write, fsync, rename, mkdir

        /// The faults this call can meet on Linux.
        var faults: [Fault] {
            switch self {
            case .open: [.interrupted, .tooManyFiles, .noSpace]
            case .read: [.interrupted, .wouldBlock]
            case .write: [.interrupted, .wouldBlock, .noSpace, .shortWrite]
            case .fsync: [.interrupted, .noSpace]
            case .rename, .mkdir: [.noSpace]
            }
        }
    }

    private static let running = Mutex<[FaultInjection]>([])

    /// The directory whose paths fail.
    public let directory: String
    /// One call in this many fails.
    public let oneIn: UInt64
    private let state: Mutex<(random: UInt64, counts: [Fault: Int])>

    /// A run failing one call in `oneIn` on paths under `directory`, drawn from `seed`.
    public init(seed: UInt64, under directory: String, oneIn: UInt64 = 4) {
        self.directory = directory.hasSuffix("/") ? directory : directory + "/"
        self.oneIn = max(oneIn, 1)
        state = Mutex((seed, [:]))
    }

    /// Runs `body` with the faults injected, and stops injecting when it returns.
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        Self.running.withLock { $0.append(self) }
        defer { Self.running.withLock { $0.removeAll { $0 === self } } }
        return try body()
    }

    /// The faults injected so far, by kind.
    public var counts: [Fault: Int] { state.withLock { $0.counts } }

    /// The number of faults injected so far.
    public var total: Int { counts.values.reduce(0, +) }

    /// The fault `call` on `path` meets now, if a run covers the path and draws one.
    static func fault(for call: Call, path: String) -> Fault? {
        guard let run = covering(path) else { return nil }
        return run.draw(from: call.faults.filter { $0 != .shortWrite })
    }

    /// Whether the next write to `path` writes only part of what it is given.
    static func shortensWrite(path: String) -> Bool {
        covering(path)?.draw(from: [.shortWrite]) == .shortWrite
    }

    private static func covering(_ path: String) -> FaultInjection? {
        running.withLock { runs in runs.first { path.hasPrefix($0.directory) } }
    }

    /// One in ``oneIn`` draws picks one of `faults` and counts it; the others pick none.
    private func draw(from faults: [Fault]) -> Fault? {
        state.withLock { state in
            let roll = Self.next(&state.random)
            guard roll % oneIn == 0, !faults.isEmpty else { return nil }
            let fault = faults[Int((roll / oneIn) % UInt64(faults.count))]
            state.counts[fault, default: 0] += 1
            return fault
        }
    }

    /// SplitMix64: a full-period generator whose output depends only on the seed.
    private static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
