/// The files timerdeck ships, compiled into the program from `Resources/` (SwiftPM embeds them in
/// code), so a copy of the binary runs from anywhere with nothing beside it.
///
/// ```swift
/// print(ShippedFile.config)                     // what `timerdeck --print-config` prints
/// let points = try RouteReplay.parseGPX(ShippedFile.route)
/// ```
package enum ShippedFile {
    /// `Resources/timerdeck.toml`: the default config, documenting every field with its default and range.
    package static var config: String { String(decoding: PackageResources.timerdeck_toml, as: UTF8.self) }

    /// `Resources/route.gpx`: the GPS track the "route" sampler replays when `uploads.route` is empty.
    package static var route: String { String(decoding: PackageResources.route_gpx, as: UTF8.self) }
}
