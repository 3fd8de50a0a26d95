import Foundation
import TestSupport
import Testing

@testable import TimerDeck

@Suite("Shipped files are compiled into the program")
struct ShippedResourceTests {
    @Test("The embedded files are Resources/ byte for byte")
    func embeddedFilesAreTheResources() throws {
        let config = try Data(contentsOf: URL(fileURLWithPath: RepositoryFile.path("Resources/timerdeck.toml")))
        let route = try Data(contentsOf: URL(fileURLWithPath: RepositoryFile.path("Resources/route.gpx")))
        #expect(Data(ShippedFile.config.utf8) == config)
        #expect(Data(ShippedFile.route.utf8) == route)
    }

    @Test("The shipped config is the documented one and loads to the built-in defaults")
    func shippedConfigLoads() throws {
        #expect(try Config.parse(ShippedFile.config) == Config())
    }
}
