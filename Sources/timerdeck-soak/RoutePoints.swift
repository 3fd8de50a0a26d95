import Uploads

/// The series a route sample is remote-written as: its `seq`, latitude, longitude and, when its
/// point has one, elevation.
let routeSeriesNames = [
    "timerdeck_sample_seq", "timerdeck_latitude_degrees", "timerdeck_longitude_degrees", "timerdeck_elevation_meters",
]

/// How many points `samples` route samples of one instance are: sample `seq` is the route's point
/// `(seq - 1) % count`, three series each and a fourth for a point with an elevation.
func routePoints(samples: Int64, route: [TrackPoint]) -> Int {
    Int(samples) * 3 + (0..<Int(samples)).filter { route[$0 % route.count].elevation != nil }.count
}
