import Foundation
import Uploads

/// Samples with distinct, exact values for round-trip assertions.
enum SampleFixtures {
    /// 2024-05-18T07:30:00.000Z in milliseconds since the Unix epoch.
    static let startMilliseconds: Int64 = 1_716_017_400_000

    /// The `index`-th position sample, five seconds apart; every third has no elevation.
    static func position(_ index: Int) -> Sample {
        Sample(
            takenAtMilliseconds: startMilliseconds + Int64(index) * 5_000,
            fields: .position(
                latitude: Double(407_813 + index) / 10_000, longitude: Double(-739_636 + index) / 10_000,
                elevation: index % 3 == 2 ? nil : 33.5 + Double(index)))
    }

    /// A host-metrics sample.
    static func hostMetrics(_ index: Int) -> Sample {
        Sample(
            takenAtMilliseconds: startMilliseconds + Int64(index) * 5_000 + 250,
            fields: .hostMetrics(
                load1: 0.52, load5: 0.58, load15: 0.59, memoryTotal: 16_707_485_696, memoryAvailable: 9_127_000_064))
    }

    /// The time `seconds` after the first sample.
    static func time(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(startMilliseconds / 1000 + Int64(seconds)))
    }
}
