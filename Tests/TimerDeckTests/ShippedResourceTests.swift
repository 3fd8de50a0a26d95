import Foundation
import Testing

@testable import TimerDeck

@Suite("Shipped resources come from the SwiftPM resource bundle")
struct ShippedResourceTests {
    @Test("The shipped route is read from the bundle beside the build, not from the source tree")
    func shippedRouteIsInTheBundle() {
        let path = UploadsSetup.shippedRoute
        #expect(path.contains("TimerDeck_TimerDeck.resources/"), "\(path)")
        #expect(FileManager.default.isReadableFile(atPath: path), "\(path)")
    }

    @Test("The bundled default config is the documented one and loads to the built-in defaults")
    func bundledConfigLoads() throws {
        let path = Bundle.module.bundleURL.appendingPathComponent("Resources/timerdeck.toml").path
        #expect(try Config.load(from: path) == Config())
    }
}
