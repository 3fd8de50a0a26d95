import Testing

@testable import Uploads

/// What an upload error tells the user, who may have only the installed binary.
@Suite struct UploadErrorTests {
    @Test("A refusal of samples too old for the database says what to do, with nothing to look up elsewhere")
    func oldSamplesRefusalSaysWhatToDo() {
        let error = UploadError.rejected(status: 400, message: "out of bounds")
        #expect(error.refusesOldSamples)
        #expect(error.description.hasSuffix("(out_of_order_time_window in prometheus.yml)."))
        #expect(!error.description.contains("README"))
        #expect(!UploadError.rejected(status: 400, message: "bad labels").description.contains("out_of_order"))
    }
}
