import KeptTimers
import RunLoopKit
import TimeUnits

extension DurationText {
    /// The duration `text` stands for: `<digits><unit>` with unit `ms`, `s`, `m` or `h`, spaces around allowed.
    ///
    /// `nil` if the text is not of that form, or if the duration does not fit in 64-bit nanoseconds
    /// (about 292 years: outside every range a caller accepts). The arithmetic is checked, never a trap.
    package static func parse(_ text: some StringProtocol) -> Duration? {
        let space = UInt8(ascii: " ")
        let trimmed = text.utf8.drop { $0 == space }.reversed().drop { $0 == space }.reversed()
        let digits = trimmed.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard !digits.isEmpty,
            let unit = Unit(rawValue: String(decoding: trimmed.dropFirst(digits.count), as: UTF8.self))
        else { return nil }
        var value: Int64 = 0
        for digit in digits {
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = scaled.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = sum
        }
        let (nanoseconds, overflow) = value.multipliedReportingOverflow(by: unit.nanoseconds)
        return overflow ? nil : .nanoseconds(nanoseconds)
    }
}
