extension SampleFields {
    /// The values as Prometheus series: one metric name and value per field present, named after
    /// what they measure with the unit as suffix.
    public var series: [(name: String, value: Double)] {
        switch self {
        case .position(let latitude, let longitude, let elevation):
            [("timerdeck_latitude_degrees", latitude), ("timerdeck_longitude_degrees", longitude)]
                + (elevation.map { [("timerdeck_elevation_meters", $0)] } ?? [])
        case .hostMetrics(let load1, let load5, let load15, let memoryTotal, let memoryAvailable):
            [
                ("timerdeck_load1", load1), ("timerdeck_load5", load5), ("timerdeck_load15", load15),
                ("timerdeck_memory_total_bytes", Double(memoryTotal)),
                ("timerdeck_memory_available_bytes", Double(memoryAvailable)),
            ]
        }
    }
}
