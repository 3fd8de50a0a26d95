import RunLoopKit
import TestSupport
import Testing

/// An instant moved by a duration counts whole nanoseconds, truncated toward zero, on both sides
/// of the 64-bit attosecond range (about 9.2 s), and saturates instead of overflowing.
@Suite("Instants: moved by a duration, to the nanosecond")
struct InstantArithmeticTests {
    private let origin = Instant(nanoseconds: 1_000_000_000_000)

    @Test("Durations that fit 64 bits of attoseconds and durations that do not give the same nanoseconds")
    func bothRanges() {
        #expect((origin + .nanoseconds(1)).nanoseconds == 1_000_000_000_001)
        #expect((origin + .seconds(9)).nanoseconds == 1_009_000_000_000)
        #expect((origin + .seconds(10)).nanoseconds == 1_010_000_000_000)
        #expect((origin + .seconds(3_600) + .nanoseconds(7)).nanoseconds == 4_600_000_000_007)
        #expect((origin - .seconds(10)).nanoseconds == 990_000_000_000)
        #expect((origin - .milliseconds(1)).nanoseconds == 999_999_000_000)
    }

    @Test("A fraction of a nanosecond is truncated toward zero, either sign, either range")
    func truncation() {
        #expect(
            (origin + Duration(secondsComponent: 0, attosecondsComponent: 1_999_999_999)).nanoseconds
                == 1_000_000_000_001)
        #expect(
            (origin + Duration(secondsComponent: 0, attosecondsComponent: -1_999_999_999)).nanoseconds
                == 999_999_999_999)
        #expect(
            (origin + Duration(secondsComponent: 20, attosecondsComponent: 1_999_999_999)).nanoseconds
                == 1_020_000_000_001)
        #expect(
            (origin + Duration(secondsComponent: -20, attosecondsComponent: -1_999_999_999)).nanoseconds
                == 979_999_999_999)
    }

    @Test("Past the range of Int64 nanoseconds an instant saturates")
    func saturation() {
        #expect(origin + .seconds(Int64.max) == .distantFuture)
        #expect((Instant(nanoseconds: -1) - .seconds(Int64.max)).nanoseconds == Int64.min)
    }
}
