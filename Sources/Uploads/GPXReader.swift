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
    private var current: (latitude: Double, longitude: Double)?
    private var elevation: Double?
    private var elevationText: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "trkpt", "rtept":
            guard let latitude = attributes["lat"].flatMap(Double.init), latitude.isFinite,
                (-90...90).contains(latitude),
                let longitude = attributes["lon"].flatMap(Double.init), longitude.isFinite,
                (-180...180).contains(longitude)
            else {
                fail(parser, "point \(points.count + 1) at line \(parser.lineNumber) has no valid lat and lon")
                return
            }
            current = (latitude, longitude)
            elevation = nil
        case "ele" where current != nil:
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
            guard let point = current else { return }
            points.append(TrackPoint(latitude: point.latitude, longitude: point.longitude, elevation: elevation))
            current = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if problem == nil {
            problem =
                "invalid XML at line \(parser.lineNumber), column \(parser.columnNumber): \(Self.explain(parseError))"
        }
    }

    /// Words for the XML errors a damaged or wrong file produces. Foundation on Linux
    /// describes them all as "The operation could not be completed" and passes libxml2's
    /// own error numbers (which its `XMLParser.ErrorCode` does not match), so map those.
    private static func explain(_ error: any Error) -> String {
        let code = (error as NSError).code
        return switch code {
        case 4: "the file does not start with an XML element (empty, or not XML)"
        case 5: "the document ends early (a truncated file?) or has content after its end"
        case 76: "a closing tag does not match its opening tag"
        case 38...41: "an attribute is malformed"
        case 65, 68, 73: "a tag is malformed"
        default: "XML error \(code)"
        }
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        problem = reason
        parser.abortParsing()
    }
}
