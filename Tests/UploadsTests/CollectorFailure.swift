/// A failure of the test collector itself (not of the code under test).
struct CollectorFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
