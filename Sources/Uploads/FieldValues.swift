/// ``SampleFields`` as a flat JSON object: the form stored in the outbox and sent to sinks.
///
/// Absent values are left out of the JSON rather than written as `null`.
struct FieldValues: Codable, Sendable, Equatable {
    var lat: Double?
    var lon: Double?
    var ele: Double?
    var load1: Double?
    var load5: Double?
    var load15: Double?
    var memTotal: Int?
    var memAvailable: Int?
    var loop: [LoopReading]?

    /// The flat form of `fields`.
    init(_ fields: SampleFields) {
        switch fields {
        case .position(let latitude, let longitude, let elevation):
            lat = latitude
            lon = longitude
            ele = elevation
        case .hostMetrics(let load1, let load5, let load15, let memoryTotal, let memoryAvailable):
            self.load1 = load1
            self.load5 = load5
            self.load15 = load15
            memTotal = memoryTotal
            memAvailable = memoryAvailable
        case .loop(let readings):
            loop = readings
        }
    }

    /// The fields of a sample of `kind`, or nil when a value that kind needs is missing.
    func fields(of kind: SampleKind) -> SampleFields? {
        switch kind {
        case .position:
            guard let lat, let lon else { return nil }
            return .position(latitude: lat, longitude: lon, elevation: ele)
        case .hostMetrics:
            guard let load1, let load5, let load15, let memTotal, let memAvailable else { return nil }
            return .hostMetrics(
                load1: load1, load5: load5, load15: load15, memoryTotal: memTotal, memoryAvailable: memAvailable)
        case .loop:
            return loop.map(SampleFields.loop)
        }
    }
}
