import Foundation
import Testing
import TimerDeck

/// Settings mistakes in the `[uploads]` section are start-up errors with the value and the fix.
@Suite struct UploadsSetupTests {
    @Test("retry_base longer than retry_cap is refused, naming both")
    func retryBaseAboveCapIsRefused() {
        do {
            _ = try Config.parse("[uploads]\nretry_base = \"10m\"\nretry_cap = \"1m\"", source: "my.toml")
            Issue.record("accepted retry_base above retry_cap")
        } catch {
            #expect(error.message == "my.toml: uploads.retry_base (10m) is longer than uploads.retry_cap (1m); "
                + "the first retry cannot wait longer than the longest, so lower retry_base or raise retry_cap")
        }
    }

    @Test("An upload URL that is not http(s) is a start-up error naming the URL", arguments: [
        ("ftp://example.org/in", "--upload-url: Upload settings are invalid: the upload URL \"ftp://example.org/in\" must start with http:// or https://."),
        ("not a url", "--upload-url: Upload settings are invalid: the upload URL \"not a url\" must start with http:// or https://."),
    ])
    func invalidUploadURLIsAStartUpError(url: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timerdeck-setup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try UploadsSetup(config: UploadsConfig(), outboxPath: directory.appendingPathComponent("outbox.sqlite").path,
                                 uploadURL: url, headless: true)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.message == message)
        }
    }
}
