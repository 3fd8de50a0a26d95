/// One point of a GPS track, as read from a GPX file.
public struct TrackPoint: Sendable, Hashable {
    /// Latitude in WGS 84 degrees, -90...90.
    public let latitude: Double
    /// Longitude in WGS 84 degrees, -180...180.
    public let longitude: Double
    /// Elevation in metres, when the file gives one.
    public let elevation: Double?

    /// Creates a point.
    public init(latitude: Double, longitude: Double, elevation: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
    }
}
