/// The queue a dashboard dispatch timer runs on.
package enum DispatchQueueChoice: String, Equatable, Sendable, CaseIterable {
    /// A background queue; each event is handed over to the loop's common modes (C-G10, G1).
    case background
    /// libdispatch's main queue, which the main run loop drains in its common modes only (C-M12):
    /// the row waits while the loop runs a mode that is not common. A loop on a virtual clock (a
    /// headless run) is not the main loop; there the timer keeps the same semantics through the
    /// loop's own delivery, so scripted runs stay deterministic.
    case main
}
