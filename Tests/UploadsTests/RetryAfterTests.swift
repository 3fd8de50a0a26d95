import Foundation
import Testing
import Uploads

@Suite struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [("120", 120), ("0", 0), (" 7 ", 7)])
    func deltaSeconds(header: String, seconds: Int) {
        #expect(RetryAfter(headerValue: header) == .delay(.seconds(seconds)))
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func httpDateInEveryForm(header: String) {
        #expect(RetryAfter(headerValue: header) == .date(rfcExample))
    }

    @Test func leapDayAndEndOfYear() {
        #expect(
            RetryAfter(headerValue: "Thu, 29 Feb 2024 23:59:59 GMT")
                == .date(Date(timeIntervalSince1970: 1_709_251_199)))
        #expect(
            RetryAfter(headerValue: "Wed, 31 Dec 2025 00:00:00 GMT")
                == .date(Date(timeIntervalSince1970: 1_767_139_200)))
    }

    @Test(arguments: [
        "", "soon", "-5", "1.5", "12s", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT",
    ])
    func invalidValuesAreIgnored(header: String) {
        #expect(RetryAfter(headerValue: header) == nil)
    }

    @Test func delayFromNowIsNeverNegative() {
        #expect(RetryAfter.delay(.seconds(30)).delay(from: rfcExample) == .seconds(30))
        #expect(RetryAfter.date(rfcExample).delay(from: rfcExample.addingTimeInterval(5)) == .zero)
        #expect(RetryAfter.date(rfcExample).delay(from: rfcExample.addingTimeInterval(-2.5)) == .milliseconds(2_500))
    }
}
