/// The answer of Prometheus's query API (`/api/v1/query`) to an instant query: a vector (each
/// series with its `value`) or, for a range selector, a matrix (each series with its `values`).
package struct PromQLAnswer: Decodable, Sendable {
    /// The answer's body.
    package struct Result: Decodable, Sendable {
        package let result: [Series]
    }

    /// One series: its labels and its point, or its points.
    package struct Series: Decodable, Sendable {
        package let metric: [String: String]
        /// A vector's point.
        package let value: Point?
        /// A matrix's points, oldest first.
        package let values: [Point]?
    }

    /// `[seconds, "value"]`: the time in seconds since 1970 and the value as text.
    package struct Point: Decodable, Sendable {
        package let seconds: Double
        package let value: String

        /// The time in whole milliseconds since 1970.
        package var milliseconds: Int64 { Int64((seconds * 1000).rounded()) }

        package init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            seconds = try pair.decode(Double.self)
            value = try pair.decode(String.self)
        }
    }

    /// `success` or `error`.
    package let status: String
    package let data: Result?
}
