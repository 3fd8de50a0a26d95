import KeptTimers
import Testing

@testable import TimerDeck

@Suite("Durations as the config file and scripts write them")
struct DurationTextTests {
    @Test("250ms, 3s, 5m, 2h parse; negative, unitless and fractional text does not")
    func parsesUnitsAndRejectsTheRest() {
        #expect(DurationText.parse("250ms") == .milliseconds(250))
        #expect(DurationText.parse(" 3s ") == .seconds(3))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("2h") == .seconds(7_200))
        for text in ["-3s", "3", "1.5s", "", "s", "3 s", "３s", "3sec"] {
            #expect(DurationText.parse(text) == nil, "\(text)")
        }
    }

    @Test(
        "A duration too long for 64-bit nanoseconds is rejected, never an overflow trap",
        arguments: [
            "200000000000000000m", "9223372036854775807ms", "9223372037s", "2562048h",
            "99999999999999999999999999999999s",
        ])
    func overflowingDurationIsRejected(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("The largest durations that fit still parse")
    func largestDurationsParse() {
        #expect(DurationText.parse("9223372036854ms") == .milliseconds(9_223_372_036_854))
        #expect(DurationText.parse("2562047h") == .seconds(2_562_047 * 3_600))
    }

    @Test("Printing: the exact config form and the short human form")
    func printing() {
        #expect(DurationText.setting(.zero) == "0s")
        #expect(DurationText.setting(.seconds(7_200)) == "2h")
        #expect(DurationText.setting(.seconds(300)) == "5m")
        #expect(DurationText.setting(.milliseconds(250)) == "250ms")
        #expect(DurationText.range(.milliseconds(1) ... .seconds(10)) == "1ms…10s")
        #expect(DurationText.format(.milliseconds(850)) == "850ms")
        #expect(DurationText.format(.milliseconds(12_500)) == "12.5s")
        #expect(DurationText.format(.seconds(245)) == "4m05s")
    }
}
