import RunLoopKit

let loop = RunLoop.current
loop.addCommonMode(.tracking)  // as UIKit does

let countdown = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { timer in
    print("tick at", timer.fireDate)
}
loop.add(countdown, forMode: .common)  // keeps firing while the loop tracks

var frames = 0
let link = DisplayLink(refreshRate: 60) { _ in frames += 1 }
link.add(to: loop, forMode: .default)  // pauses while the loop tracks (seed M4)

let poll = DispatchTimer(clock: .continuous, runLoop: loop) { event in print(event.ticks, "ticks") }
poll.schedule(deadline: .now, repeating: .seconds(5))
poll.resume()  // any order of suspend, resume and cancel is safe

let toast = loop.perform(after: .seconds(2)) { print(frames, "frames in 2 s") }  // a delayed perform
loop.perform(after: .seconds(1)) { print("toast pending:", toast.isPending) }  // toast.cancel() drops it

loop.run(until: loop.now + .seconds(3))
