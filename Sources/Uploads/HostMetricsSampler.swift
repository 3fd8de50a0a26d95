import AppPlatform
import Foundation

/// A sampler of the host's load average (`/proc/loadavg`) and memory (`/proc/meminfo`).
///
/// The parse functions take the files' text, so they can be tested on fixtures.
///
/// ```swift
/// var host = HostMetricsSampler()
/// let sample = try host.sample(at: Date())   // .hostMetrics(load1:load5:load15:memoryTotal:memoryAvailable:)
/// ```
public struct HostMetricsSampler: Sampler, Sendable {
    /// The directory read as `/proc`.
    public let procDirectory: URL

    /// Always ``SampleKind/hostMetrics``.
    public var kind: SampleKind { .hostMetrics }

    /// Reads from `procDirectory`, `/proc` unless a test points elsewhere.
    public init(procDirectory: URL = URL(fileURLWithPath: "/proc", isDirectory: true)) {
        self.procDirectory = procDirectory
    }

    /// Reads both files now and returns their values stamped with `time`.
    /// - Throws: ``SamplerError`` naming the file that could not be read or parsed.
    public func sample(at time: Date) throws(SamplerError) -> Sample {
        let loadPath = procDirectory.appendingPathComponent("loadavg").path
        let memoryPath = procDirectory.appendingPathComponent("meminfo").path
        let load = try Self.parseLoadAverage(Self.read(loadPath), source: loadPath)
        let memory = try Self.parseMemInfo(Self.read(memoryPath), source: memoryPath)
        return Sample(
            takenAt: time,
            fields: .hostMetrics(
                load1: load.load1, load5: load.load5, load15: load.load15,
                memoryTotal: memory.total, memoryAvailable: memory.available))
    }

    /// The three load averages of `/proc/loadavg` text (`0.52 0.58 0.59 1/467 12345`).
    public static func parseLoadAverage(_ text: String, source: String = "/proc/loadavg") throws(SamplerError) -> (
        load1: Double, load5: Double, load15: Double
    ) {
        let words = text.split(whereSeparator: \.isWhitespace)
        let values = words.prefix(3).compactMap { Double($0) }.filter { $0.isFinite && $0 >= 0 }
        guard values.count == 3 else {
            throw .malformed(source: source, reason: "expected three load averages, found \"\(text.prefix(60))\"")
        }
        return (values[0], values[1], values[2])
    }

    /// `MemTotal` and `MemAvailable` of `/proc/meminfo` text, in bytes.
    public static func parseMemInfo(_ text: String, source: String = "/proc/meminfo") throws(SamplerError) -> (
        total: Int, available: Int
    ) {
        var total: Int?
        var available: Int?
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            guard key == "MemTotal" || key == "MemAvailable" else { continue }
            let words = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace)
            guard let number = words.first.flatMap({ Int($0) }), number >= 0 else {
                throw .malformed(source: source, reason: "\(key) has no number: \"\(line)\"")
            }
            let unit = words.dropFirst().first.map(String.init) ?? ""
            let multiplier: Int
            switch unit {
            case "kB": multiplier = 1024
            case "": multiplier = 1
            default: throw .malformed(source: source, reason: "\(key) has an unknown unit \"\(unit)\"")
            }
            if key == "MemTotal" { total = number * multiplier } else { available = number * multiplier }
        }
        guard let total else { throw .malformed(source: source, reason: "no MemTotal line") }
        guard let available else {
            throw .malformed(source: source, reason: "no MemAvailable line (Linux 3.14 or later has it)")
        }
        return (total, available)
    }

    private static func read(_ path: String) throws(SamplerError) -> String {
        do {
            return String(decoding: try FileIO.read(atPath: path), as: UTF8.self)
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
    }
}
