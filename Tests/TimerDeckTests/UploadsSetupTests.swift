import Foundation
import Testing
import TimerDeck
import Uploads

/// Settings mistakes in the `[uploads]` section are start-up errors with the value and the fix.
@Suite struct UploadsSetupTests {
    @Test("retry_base longer than retry_cap is refused, naming both")
    func retryBaseAboveCapIsRefused() {
        do {
            _ = try Config.parse("[uploads]\nretry_base = \"10m\"\nretry_cap = \"1m\"", source: "my.toml")
            Issue.record("accepted retry_base above retry_cap")
        } catch {
            #expect(
                error.message
                    == "my.toml:2: field 'uploads.retry_base' = \"10m\" is longer than uploads.retry_cap = \"1m\"; "
                    + "the first retry cannot wait longer than the longest, so lower retry_base or raise retry_cap")
        }
    }

    @Test(
        "An upload URL that is not http(s) is a start-up error naming the URL",
        arguments: [
            (
                "ftp://example.org/in",
                "option --upload-url: the upload URL \"ftp://example.org/in\" must start with http:// or https:// (accepted: an "
                    + "http(s) or prometheus+http(s) URL)"
            ),
            (
                "not a url",
                "option --upload-url: the upload URL \"not a url\" must start with http:// or https:// (accepted: an http(s) or "
                    + "prometheus+http(s) URL)"
            ),
        ])
    func invalidUploadURLIsAStartUpError(url: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timerdeck-setup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try UploadsSetup(
                config: Config(), outboxPath: directory.appendingPathComponent("outbox.sqlite").path,
                uploadURL: url, headless: true)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.message == message)
        }
    }
}

extension UploadsSetupTests {
    @Test(
        "uploads.url, uploads.route and uploads.labels refused at start-up name the config file and line",
        arguments: [
            (
                "[uploads]\nurl = \"ftp://example.org/in\"\n",
                "my.toml:2: field 'uploads.url': the upload URL \"ftp://example.org/in\" must start with http:// or "
                    + "https:// (accepted: \"\" or an http(s) or prometheus+http(s) URL)"
            ),
            (
                "[uploads]\nsink = \"prometheus\"\nurl = \"http://127.0.0.1:9/\"\nlabels = \"job=x\"\n",
                "my.toml:4: field 'uploads.labels': the label \"job\" is set by timerdeck itself (accepted: \"\" or "
                    + "\"name=value,name=value\")"
            ),
            (
                "[uploads]\nroute = \"/nonexistent/route.gpx\"\n",
                "my.toml:2: field 'uploads.route': cannot read /nonexistent/route.gpx: No such file or directory "
                    + "(accepted: a path to a GPX file; or set uploads.sampler = \"host\")"
            ),
        ])
    func configFieldsRefusedAtStartUp(text: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timerdeck-setup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try UploadsSetup(
                config: Config.parse(text, source: "my.toml"),
                outboxPath: directory.appendingPathComponent("outbox.sqlite").path, uploadURL: nil, headless: true)
            Issue.record("accepted \(text)")
        } catch let error as UploadsSetupError {
            #expect(error.message == message)
        }
    }

    @Test("Retention is read from keep_delivered and keep_delivered_count; 0 sets no count limit")
    func retentionIsConfigurable() throws {
        #expect(try Config.parse("").uploads.retention == .sevenDays)
        let config = try Config.parse("[uploads]\nkeep_delivered = \"24h\"\nkeep_delivered_count = 50000")
        #expect(config.uploads.retention == OutboxRetention(age: .seconds(86_400), count: 50_000))
        #expect(try Config.parse("[uploads]\nkeep_delivered_count = 0").uploads.retention.count == nil)
        do {
            _ = try Config.parse("[uploads]\nkeep_delivered = \"10m\"")
            Issue.record("accepted a retention under an hour")
        } catch {
            #expect(
                error.message
                    == "config:2: field 'uploads.keep_delivered' = \"10m\" is invalid (accepted: a duration 1h…8760h, e.g. \"250ms\", \"3s\", \"5m\")"
            )
        }
    }
}
