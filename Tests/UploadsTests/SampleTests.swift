import Foundation
import Testing
import Uploads

@Suite struct SampleTests {
    @Test func takenAtIsKeptToTheMillisecond() {
        let sample = Sample(
            takenAt: Date(timeIntervalSince1970: 1_716_017_400.123_9),
            fields: .position(latitude: 1, longitude: 2, elevation: nil))
        #expect(sample.takenAtMilliseconds == 1_716_017_400_123)
        #expect(sample.takenAtISO8601 == "2024-05-18T07:30:00.123Z")
    }

    @Test func iso8601HandlesTheEpochAndEarlierTimes() {
        let fields = SampleFields.position(latitude: 0, longitude: 0, elevation: nil)
        #expect(Sample(takenAtMilliseconds: 0, fields: fields).takenAtISO8601 == "1970-01-01T00:00:00.000Z")
        #expect(Sample(takenAtMilliseconds: -1, fields: fields).takenAtISO8601 == "1969-12-31T23:59:59.999Z")
        #expect(
            Sample(takenAtMilliseconds: 951_782_400_007, fields: fields).takenAtISO8601 == "2000-02-29T00:00:00.007Z")
    }

    @Test func kindFollowsTheFields() {
        #expect(SampleFixtures.position(0).kind == .position)
        #expect(SampleFixtures.hostMetrics(0).kind == .hostMetrics)
    }
}
