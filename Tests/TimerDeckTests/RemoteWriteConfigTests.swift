import Testing

@testable import TimerDeck

/// The `[uploads]` fields of remote write: the sink, the instance and job labels, extra labels.
@Suite struct RemoteWriteConfigTests {
    @Test("sink, instance, job and labels are read; labels are trimmed and kept by name")
    func fieldsAreRead() throws {
        let config = try Config.parse(
            """
            [uploads]
            sink = "prometheus"
            instance = "deck-17"
            job = "fleet"
            labels = "region=eu, rack = r3"
            """)
        #expect(config.uploads.sink == .prometheus)
        #expect(config.uploads.instance == "deck-17")
        #expect(config.uploads.job == "fleet")
        #expect(config.uploads.labels == ["region": "eu", "rack": "r3"])
        #expect(UploadsConfig.writeLabels(config.uploads.labels) == "rack=r3,region=eu")
    }

    @Test("The defaults: JSON, the host name as instance, job timerdeck, no labels")
    func defaults() throws {
        let uploads = try Config.parse("").uploads
        #expect(
            uploads.sink == .json && uploads.instance == nil && uploads.job == "timerdeck" && uploads.labels.isEmpty)
    }

    @Test(
        "A labels value that is not name=value pairs names the field and what it accepts",
        arguments: ["region", "region=", "=eu", "a=1,a=2"])
    func malformedLabels(text: String) {
        #expect(throws: ConfigError.self) { try Config.parse("[uploads]\nlabels = \"\(text)\"") }
        #expect(UploadsConfig.parseLabels(text) == nil)
    }
}
