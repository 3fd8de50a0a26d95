import Foundation
import TestSupport
import Testing
import Uploads

@Suite struct RouteReplayTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>three points</name><trkseg>
            <trkpt lat="40.781356" lon="-73.963575"><ele>34.0</ele><time>2024-05-18T07:30:00Z</time></trkpt>
            <trkpt lon="-73.963493" lat="40.781345"><ele> 33.6 </ele></trkpt>
            <trkpt lat="40.781401" lon="-73.963410"/>
          </trkseg></trk>
        </gpx>
        """

    static let resourcePath = RepositoryFile.path("Resources/route.gpx")

    @Test func parsesTrackPointsWithOptionalElevation() throws {
        #expect(
            try RouteReplay.parseGPX(Self.gpx) == [
                TrackPoint(latitude: 40.781356, longitude: -73.963575, elevation: 34.0),
                TrackPoint(latitude: 40.781345, longitude: -73.963493, elevation: 33.6),
                TrackPoint(latitude: 40.781401, longitude: -73.963410, elevation: nil),
            ])
    }

    @Test func stepsThroughThePointsAndLoops() throws {
        var route = try RouteReplay(points: RouteReplay.parseGPX(Self.gpx))
        var latitudes: [Double] = []
        for second in 0..<7 {
            let sample = route.sample(at: SampleFixtures.time(5 * second))
            guard case .position(let latitude, _, _) = sample.fields else {
                Issue.record("expected a position, got \(sample.fields)")
                return
            }
            #expect(sample.takenAt == SampleFixtures.time(5 * second))
            latitudes.append(latitude)
        }
        #expect(latitudes == [40.781356, 40.781345, 40.781401, 40.781356, 40.781345, 40.781401, 40.781356])
        #expect(route.laps == 2)
        #expect(route.nextIndex == 1)
    }

    @Test func routePointsAreRoutes() throws {
        let gpx = #"<gpx><rte><rtept lat="1.5" lon="2.5"/><rtept lat="-1" lon="-2"><ele>-3</ele></rtept></rte></gpx>"#
        #expect(
            try RouteReplay.parseGPX(gpx) == [
                TrackPoint(latitude: 1.5, longitude: 2.5), TrackPoint(latitude: -1, longitude: -2, elevation: -3),
            ])
    }

    @Test func bundledRouteIsAWalkAroundTheReservoir() throws {
        let route = try RouteReplay(contentsOf: URL(fileURLWithPath: Self.resourcePath))
        #expect(route.points.count >= 300)
        for point in route.points {
            #expect((40.780...40.791).contains(point.latitude))
            #expect((-73.967...(-73.957)).contains(point.longitude))
            #expect(point.elevation != nil)
        }
    }

    @Test func invalidXMLIsMalformed() {
        let error = #expect(throws: SamplerError.self) { try RouteReplay.parseGPX("<gpx><trk>", source: "walk.gpx") }
        guard case .malformed(let source, let reason) = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(source == "walk.gpx")
        #expect(
            reason
                == "invalid XML at line 1, column 11: the document ends early (a truncated file?) or has content after its end"
        )
    }

    @Test func pointWithoutCoordinatesIsMalformed() {
        #expect(throws: SamplerError.malformed(source: "GPX", reason: "point 2 at line 1 has no valid lat and lon")) {
            try RouteReplay.parseGPX(#"<gpx><trkpt lat="1" lon="2"/><trkpt lat="nan" lon="2"/></gpx>"#)
        }
        #expect(throws: SamplerError.self) { try RouteReplay.parseGPX(#"<gpx><trkpt lat="91" lon="2"/></gpx>"#) }
    }

    @Test func trackWithoutPointsCannotBeReplayed() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path("empty.gpx")
        try Data("<gpx><trk><trkseg/></trk></gpx>".utf8).write(to: file)
        #expect(throws: SamplerError.emptyTrack(source: file.path)) { try RouteReplay(contentsOf: file) }
    }

    @Test func missingFileIsUnreadable() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path("missing.gpx")
        #expect(throws: SamplerError.unreadable(path: file.path, reason: "No such file or directory")) {
            try RouteReplay(contentsOf: file)
        }
    }
}
