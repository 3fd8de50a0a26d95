extension DashboardDriver {
    /// Writes the log records appended since the log's total was `logged` to `trace`.
    func traceFires(since logged: Int, to trace: TraceFile) {
        let log = state.log
        let added = min(log.totalAppended - logged, log.count)
        guard added > 0 else { return }
        let depth = loop.nestingDepth
        for index in (log.count - added)..<log.count {
            let record = log[index]
            let mechanism = state.contains(record.row) ? state[record.row].mechanismName : ""
            trace.fire(record, since: startTime, mechanism: mechanism, depth: depth)
        }
    }
}
