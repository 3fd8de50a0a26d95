import Foundation
import TestSupport
import Testing
import Uploads

@Suite struct HostMetricsSamplerTests {
    static let loadavg = "0.52 0.58 0.59 1/467 12345\n"
    static let meminfo = """
        MemTotal:       16315904 kB
        MemFree:         1203456 kB
        MemAvailable:    8913084 kB
        Buffers:          402112 kB
        Cached:          6834100 kB
        HugePages_Total:       0

        """

    @Test func parsesLoadAverages() throws {
        let load = try HostMetricsSampler.parseLoadAverage(Self.loadavg)
        #expect(load.load1 == 0.52)
        #expect(load.load5 == 0.58)
        #expect(load.load15 == 0.59)
    }

    @Test func parsesMemoryInBytes() throws {
        let memory = try HostMetricsSampler.parseMemInfo(Self.meminfo)
        #expect(memory.total == 16_315_904 * 1024)
        #expect(memory.available == 8_913_084 * 1024)
    }

    @Test(arguments: ["", "0.52 0.58", "high medium low 1/2 3", "0.5 -1 0.2 1/2 3"])
    func malformedLoadAverageIsReported(text: String) {
        #expect(throws: SamplerError.self) { try HostMetricsSampler.parseLoadAverage(text, source: "/proc/loadavg") }
    }

    @Test func meminfoWithoutMemAvailableIsReported() {
        #expect(
            throws: SamplerError.malformed(
                source: "/proc/meminfo", reason: "no MemAvailable line (Linux 3.14 or later has it)")
        ) {
            try HostMetricsSampler.parseMemInfo("MemTotal: 1024 kB\nMemFree: 512 kB\n")
        }
    }

    @Test func samplesFromAGivenProcDirectory() throws {
        let scratch = try ScratchDirectory()
        try Data(Self.loadavg.utf8).write(to: scratch.path("loadavg"))
        try Data(Self.meminfo.utf8).write(to: scratch.path("meminfo"))
        let sample = try HostMetricsSampler(procDirectory: scratch.url).sample(at: SampleFixtures.time(0))
        #expect(
            sample
                == Sample(
                    takenAt: SampleFixtures.time(0),
                    fields: .hostMetrics(
                        load1: 0.52, load5: 0.58, load15: 0.59, memoryTotal: 16_315_904 * 1024,
                        memoryAvailable: 8_913_084 * 1024)))
    }

    @Test func missingProcFileNamesThePath() throws {
        let scratch = try ScratchDirectory()
        #expect(
            throws: SamplerError.unreadable(path: scratch.path("loadavg").path, reason: "No such file or directory")
        ) {
            try HostMetricsSampler(procDirectory: scratch.url).sample(at: SampleFixtures.time(0))
        }
    }

    @Test func readsTheRealProc() throws {
        func loadNow() throws -> [Double] {
            try String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").prefix(3).map {
                try #require(Double($0))
            }
        }
        let before = try loadNow()
        let sample = try HostMetricsSampler().sample(at: Date())
        let after = try loadNow()
        guard case .hostMetrics(let load1, let load5, let load15, let total, let available) = sample.fields else {
            Issue.record("expected host metrics, got \(sample.fields)")
            return
        }
        // The kernel updates the averages every 5 s: the sample is the reading before or after.
        #expect([before, after].contains([load1, load5, load15]))
        #expect(total > 0)
        #expect((0...total).contains(available))
    }
}
