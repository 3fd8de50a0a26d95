import Foundation
import Testing
import Uploads

/// A server must never be able to crash the client: whatever `Retry-After` says, the parser
/// returns a value or nil, and the delay it yields is between zero and a day.
@Suite struct RetryAfterFuzzTests {
    let now = Date(timeIntervalSince1970: 1_767_139_200)

    @Test(arguments: [
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT",
        "Sun, 06 Nov -9223372036854775807 08:49:37 GMT",
        "Sun Nov  6 08:49:37 9223372036854775807",
        "Sun, 06 Nov 10000 08:49:37 GMT",
        "Sun, 06 Nov 0 08:49:37 GMT",
    ])
    func yearOutsideFourDigitsIsNotADate(header: String) {
        #expect(RetryAfter(headerValue: header) == nil)
    }

    @Test func farFutureDateWaitsAtMostADay() throws {
        let retryAfter = try #require(RetryAfter(headerValue: "Fri, 31 Dec 9999 23:59:59 GMT"))
        #expect(retryAfter.delay(from: now) == RetryAfter.longestDelay)
        #expect(RetryAfter.date(.distantFuture).delay(from: now) == RetryAfter.longestDelay)
        #expect(RetryAfter.delay(.seconds(Int64.max)).delay(from: now) == RetryAfter.longestDelay)
        #expect(RetryAfter(headerValue: "9223372036854775807")?.delay(from: now) == RetryAfter.longestDelay)
    }

    @Test func hundredThousandSeededHeadersNeverTrap() {
        var random = SeededRandom(seed: 0x5EED_0013)
        let seeds = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "120",
        ]
        let pieces = [
            "9223372036854775807", "-9223372036854775808", "99999999999999999999", "0", "-1", "+7",
            "60", "24", "31", "Feb", "GMT", ",", "-", ":", " ", "  ", "\t", "é", "\u{0}", "9999", "10000",
        ]
        var parsed = 0
        for _ in 0..<100_000 {
            var header = Array(seeds[Int(random.next() % UInt64(seeds.count))])
            for _ in 0...(random.next() % 4) {
                let piece = Array(pieces[Int(random.next() % UInt64(pieces.count))])
                let start = Int(random.next() % UInt64(header.count + 1))
                let length = Int(random.next() % 6)
                header.replaceSubrange(start..<min(start + length, header.count), with: piece)
            }
            if let retryAfter = RetryAfter(headerValue: String(header)) {
                parsed += 1
                let delay = retryAfter.delay(from: now)
                #expect(delay >= .zero && delay <= RetryAfter.longestDelay)
            }
        }
        // The mutations keep some headers valid, so both paths of the parser were exercised.
        #expect(parsed > 1_000 && parsed < 100_000)
    }
}
