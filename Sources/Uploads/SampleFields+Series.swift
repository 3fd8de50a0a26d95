extension SampleFields {
    /// The values as Prometheus series: one metric name, labels of its own and value per field
    /// present, named after what they measure with the unit as suffix. Only a loop's readings have
    /// labels of their own (`mode`, `timer`, `reason`).
    public var series: [(name: String, labels: [String: String], value: Double)] {
        let none: [String: String] = [:]
        switch self {
        case .position(let latitude, let longitude, let elevation):
            let elevation = elevation.map { [(name: "timerdeck_elevation_meters", labels: none, value: $0)] } ?? []
            return [
                ("timerdeck_latitude_degrees", none, latitude), ("timerdeck_longitude_degrees", none, longitude),
            ] + elevation
        case .hostMetrics(let load1, let load5, let load15, let memoryTotal, let memoryAvailable):
            return [
                ("timerdeck_load1", none, load1), ("timerdeck_load5", none, load5), ("timerdeck_load15", none, load15),
                ("timerdeck_memory_total_bytes", none, Double(memoryTotal)),
                ("timerdeck_memory_available_bytes", none, Double(memoryAvailable)),
            ]
        case .loop(let readings):
            return readings.map { (name: $0.name, labels: $0.labels, value: $0.value) }
        }
    }
}
