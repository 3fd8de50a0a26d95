import Dispatch
import Glibc
import RunLoopKit

// Applies a sequence of suspend (s), resume (r) and cancel (c) to a dispatch timer, then releases
// it, and exits 0 if the process survived. `raw` uses libdispatch directly; `wrapped` uses
// RunLoopKit's DispatchTimer. The crash-matrix test runs every order in a child process of this.
let arguments = CommandLine.arguments
guard arguments.count >= 2, ["raw", "wrapped"].contains(arguments[1]) else {
    print("usage: dispatch-order-probe raw|wrapped [OPS]   (OPS: letters s, r, c)")
    exit(64)
}
let operations = Array(arguments.count > 2 ? arguments[2] : "")

func runRaw() {
    let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "probe"))
    source.schedule(deadline: .now() + .seconds(3_600))
    source.setEventHandler {}
    for operation in operations {
        switch operation {
        case "s": source.suspend()
        case "r": source.resume()
        case "c": source.cancel()
        default: break
        }
    }
}

func runWrapped() {
    let timer = DispatchTimer(queue: DispatchQueue(label: "probe")) { _ in }
    timer.schedule(deadline: .after(.seconds(3_600)))
    for operation in operations {
        switch operation {
        case "s": timer.suspend()
        case "r": timer.resume()
        case "c": timer.cancel()
        default: break
        }
    }
}

if arguments[1] == "raw" { runRaw() } else { runWrapped() }
exit(0)
