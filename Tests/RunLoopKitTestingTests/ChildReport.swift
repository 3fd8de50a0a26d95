import Glibc

// What a child process of an exit test reports: the first thing that differed, on standard error,
// read back by the parent, or nothing.

/// Ends a child process: status 0 when `failure` is `nil`, else 1 with `failure` on standard error.
func reportAndExit(_ failure: String?) -> Never {
    guard let failure else { exit(0) }
    let line = "differed: " + failure + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

/// `nil` when `actual` equals `expected`, else both, for a child's report.
func mismatch<Value: Equatable>(_ actual: Value, _ expected: Value) -> String? {
    actual == expected ? nil : "got \(actual), expected \(expected)"
}
