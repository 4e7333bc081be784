import Dispatch
import RippleCore

/// Cancellation and owners: the floor every room stands on.
let coreSection = TourSection(name: "core", summary: "cancellables, bags and owners (RippleCore)") { log in
    log.heading("RippleCore — cancellation that happens exactly once")
    log.code("let bag = CancelBag(); ClosureCancelToken { … }.store(in: bag); bag.cancel()")
    let bag = CancelBag()
    for name in ["search request", "timer", "listener"] {
        ClosureCancelToken { log.print("cancelled \(name)") }.store(in: bag)
    }
    log.print("bag holds \(bag.count) cancellables")
    bag.cancel()
    bag.cancel()
    log.print("bag cancelled twice; each action ran once; bag holds \(bag.count)")

    log.code("a ListenerOwner's bag cancels its work when the owner is freed")
    final class ViewModel: ListenerOwner {
        let cancelBag = CancelBag()
    }
    var model: ViewModel? = ViewModel()
    let cancellable = ClosureCancelToken()
    cancellable.cancelled(by: model!)
    log.print("owner alive: cancelled = \(cancellable.isCancelled)")
    model = nil
    log.print("owner freed: cancelled = \(cancellable.isCancelled)")
}
