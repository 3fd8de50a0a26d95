import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the track points of a GPX document (`<trkpt>`, or `<rtept>` for a route).
///
/// Used once per document by ``RouteReplay/parseGPX(_:source:)``; not thread-safe.
final class GPXReader: NSObject, XMLParserDelegate {
    private(set) var points: [TrackPoint] = []
    private(set) var problem: String?
    private var open: (latitude: Double, longitude: Double)?
    private var elevation: Double?
    private var elevationText: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "trkpt", "rtept":
            guard let latitude = attributes["lat"].flatMap(Double.init), latitude.isFinite, (-90...90).contains(latitude),
                let longitude = attributes["lon"].flatMap(Double.init), longitude.isFinite,
                (-180...180).contains(longitude)
            else {
                fail(parser, "point \(points.count + 1) at line \(parser.lineNumber) has no valid lat and lon")
                return
            }
            open = (latitude, longitude)
            elevation = nil
        case "ele" where open != nil:
            elevationText = ""
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        elevationText? += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "ele":
            guard let text = elevationText else { return }
            elevationText = nil
            guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else {
                fail(parser, "point \(points.count + 1) at line \(parser.lineNumber) has elevation \"\(text)\"")
                return
            }
            elevation = value
        case "trkpt", "rtept":
            guard let point = open else { return }
            points.append(TrackPoint(latitude: point.latitude, longitude: point.longitude, elevation: elevation))
            open = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if problem == nil {
            problem = "XML error at line \(parser.lineNumber): \(parseError.localizedDescription)"
        }
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        problem = reason
        parser.abortParsing()
    }
}
