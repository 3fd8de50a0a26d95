import RunLoopKit

// RunLoopKitFoundationCompat's target–action idioms on RunLoopKit's timers and loops, without its
// Foundation-named `Timer` and `RunLoop`.
import class RunLoopKitFoundationCompat.WeakProxy

private final class TargetToast {
    func hideToast() {}

    func performAfterWithTargetExample(loop: RunLoop) {
        let request = loop.perform(after: .seconds(2), target: self) { [weak self] in self?.hideToast() }
        request.cancel()  // or: loop.cancelPerformRequests(target: self)
    }
}

private final class SearchField {
    func search(_ text: String?) {}

    func performActionExample(loop: RunLoop, query: String) {
        loop.perform(after: .milliseconds(300), target: self, action: "search", argument: query) { owner, query in
            owner.search(query as? String)
        }
        loop.cancelPerformRequests(target: self, action: "search", argument: query)  // typing went on
    }
}

private final class Refresher {
    func refresh() {}

    func blockInUserInfoExample(loop: RunLoop) {
        let timer = Timer.withBlockInUserInfo(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) {
            [weak self] _ in self?.refresh()
        }
        loop.add(timer, forMode: .default)
    }
}

private enum WeakProxyExample {
    final class Owner {
        var timer: Timer?

        init(loop: RunLoop) {
            timer = Timer(
                fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true,
                target: WeakProxy(self), action: WeakProxy.forward(Owner.tick))
        }

        func tick(_ timer: Timer) { print("tick") }

        deinit { timer?.invalidate() }
    }
}
