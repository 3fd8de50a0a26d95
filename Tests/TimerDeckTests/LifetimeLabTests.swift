import Testing

@testable import TimerDeck

@Suite("The lifetime lab (2): screens that own a timer, counted by their deinits and ticks (L1, L2, L3)")
struct LifetimeLabTests {
    /// The counts of `strategy`'s line: opened, closed, alive, timers, fires after close.
    private func counts(_ screen: String, _ strategy: LabStrategy) -> [Int] {
        line(screen, containing: strategy.label).dropFirst(strategy.label.count + 3)
            .split(separator: " ").compactMap { Int($0.filter(\.isNumber)) }
    }

    @Test(
        "L1/L3: one screen per strategy opened and closed, 3 s later only the strong target and the strong capture are alive and fire into closed screens; i frees them"
    )
    func leaksAndRemedies() throws {
        let openAndClose = Array(repeating: "key o\nkey c\nkey down", count: LabStrategy.allCases.count)
        let freeBoth =
            "key i\n"
            + Array(repeating: "key up", count: LabStrategy.allCases.count - 1).joined(
                separator: "\n") + "\nkey i"
        let snapshots = try runHeadless(
            "key 2\n" + openAndClose.joined(separator: "\n") + "\nwait 3s\nsnapshot\n" + freeBoth
                + "\nwait 2s\nsnapshot\n")
        try #require(snapshots.count == 2)
        for strategy in LabStrategy.allCases {
            // Fires at 1, 2 and 3 s, all after the close at 0 s.
            #expect(
                counts(snapshots[0].screen, strategy) == (strategy.leaks ? [1, 1, 1, 1, 3] : [1, 1, 0, 0, 0]),
                "\(strategy)")
            // Invalidated at 3 s: freed, and no fire after that.
            #expect(counts(snapshots[1].screen, strategy) == [1, 1, 0, 0, strategy.leaks ? 3 : 0], "\(strategy)")
        }
    }

    @Test("L2c: a closed screen's weak-target timer stays scheduled until its first fire after the deinit")
    func weakTargetInvalidatesAtNextFire() throws {
        let down = Array(repeating: "key down", count: LabStrategy.weakTarget.rawValue).joined(separator: "\n")
        let snapshots = try runHeadless(
            "key 2\n\(down)\nkey o\nkey o\nwait 1500ms\nkey c\nsnapshot\nwait 1s\nsnapshot\n")
        try #require(snapshots.count == 2)
        // Two open, one closed and freed; its timer fires at 2 s into nothing and invalidates itself.
        #expect(counts(snapshots[0].screen, .weakTarget) == [2, 1, 1, 2, 0])
        #expect(counts(snapshots[1].screen, .weakTarget) == [2, 1, 1, 1, 0])
    }
}
