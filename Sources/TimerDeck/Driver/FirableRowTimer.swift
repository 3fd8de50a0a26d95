/// A row timer that can fire by hand, outside its schedule (T2): not a display link, whose next
/// frame the state draws itself.
protocol FirableRowTimer: RowTimer {
    /// Fires it now; the fire is reported as one by hand.
    func fireNow()
}
