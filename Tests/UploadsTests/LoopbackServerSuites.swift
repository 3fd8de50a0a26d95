import Testing

/// The suites whose tests post to servers of their own on loopback (the collector, Prometheus) run
/// one test at a time, so that no two of them share the machine's loopback and the URLSession
/// machinery at once: a request that a busy suite leaves unanswered must not be another's timeout.
@Suite(.serialized) enum LoopbackServerSuites {}
