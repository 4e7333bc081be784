import Dispatch
import Observation
import RippleCore
import RippleSignals

@Observable
private final class TourOrder {
    var purchaseNum = 1
}

private struct RequestError: Error {}

/// A "network request" answering `value` after `milliseconds` on `queue`, then completing.
private func tourRequest(_ name: String, _ milliseconds: Int, on queue: DispatchQueue,
                         log: TourLog) -> Signal<String, RequestError> {
    Signal { subscriber in
        log.print("\(name) started")
        let work = QueueScheduler(queue).schedule(after: .milliseconds(milliseconds)) {
            log.print("\(name) finished")
            subscriber.send(name)
            subscriber.sendComplete()
        }
        return Disposer { work.cancel() }
    }
}

private func numbers(_ values: [Int]) -> Signal<Int, Never> {
    Signal { subscriber in
        for value in values { subscriber.send(value) }
        subscriber.sendComplete()
        return .empty
    }
}

/// GYSignal.md, end to end: binding, composition, basic use, every operator, two-way binding.
let signalsSection = TourSection(name: "signals", summary: "GYSignal's cold signals, operators and binding") { log in
    log.heading("GYSignal — 数据绑定: observe order.purchaseNum")
    log.code("observe(order, \\.purchaseNum, on: .queue(q)).subscribe { print(\"value=\\($0)\") }")
    let modelQueue = DispatchQueue(label: "tour.order")
    let order = modelQueue.sync { TourOrder() }
    nonisolated(unsafe) let sharedOrder = order  // touched only on modelQueue
    let binding = observe(order, \.purchaseNum, on: .queue(modelQueue)).subscribe { log.print("value=\($0)") }
    for next in [2, 3] {
        modelQueue.sync { sharedOrder.purchaseNum = next }
        modelQueue.sync {}  // the observation reads the new value on the model's queue, after the change
    }
    binding.dispose()

    log.heading("GYSignal — 异步事件组合: [[requestA zip:@[requestB]] flattenMap:^{ return requestC; }]")
    log.code("requestA.zip(requestB).flatMap { _ in requestC }.subscribe { print(\"value=\\($0)\") }")
    let network = DispatchQueue(label: "tour.network")
    let requestA = tourRequest("requestA", 40, on: network, log: log)
    let requestB = tourRequest("requestB", 10, on: network, log: log)
    let requestC = tourRequest("requestC", 10, on: network, log: log)
    // The handle is kept until the chain ends: releasing it would cancel the requests (the lifetime rule).
    let requests = Locked<Disposer?>(nil)
    let chain = requestA.zip(requestB)
        .flatMap { pair in
            log.print("A and B done (\(pair.0), \(pair.1)): start C")
            return requestC
        }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let subscription = chain
            .subscribe(value: { (value: String) in log.print("value=\(value)") },
                       error: { _ in done.resume() },
                       complete: {
                           log.print("complete")
                           done.resume()
                       })
        requests.withLock { $0 = subscription }
    }
    requests.withLock { $0 = nil }

    log.heading("GYSignal — 基本使用: create, subscribe, dispose")
    log.code("Signal<String, any Error> { s in s.send(\"1\"); s.sendComplete(); s.sendError(e); return Disposer { … } }")
    let signal = Signal<String, RequestError> { subscriber in
        subscriber.send("1")
        subscriber.sendComplete()
        subscriber.sendError(RequestError())  // ignored: complete came first
        return Disposer { log.print("disposer: resources released") }
    }
    let disposer = signal.subscribe(value: { log.print("value=\($0)") },
                                    error: { _ in log.print("error") },
                                    complete: { log.print("complete") })
    disposer.dispose()
    log.print("disposed again: still released once, isDisposed=\(disposer.isDisposed)")

    log.heading("GYSignal — 信号操作")
    log.code("Signal.just(\"666\")")
    _ = Signal<String, Never>.just("666").subscribe { log.print("just: \($0)") }
    log.code("[1…6].filter { $0 % 2 != 0 }")
    _ = numbers([1, 2, 3, 4, 5, 6]).filter { $0 % 2 != 0 }.subscribe { log.print("filter: \($0)") }
    log.code("[1, 1, 2, 2, 3, 1].different()")
    _ = numbers([1, 1, 2, 2, 3, 1]).different().subscribe { log.print("different: \($0)") }
    log.code("[1…5].take(3)")
    _ = numbers([1, 2, 3, 4, 5]).take(3).subscribe(value: { log.print("take: \($0)") },
                                               complete: { log.print("take: complete") })
    log.code("[1…5].skip(3)")
    _ = numbers([1, 2, 3, 4, 5]).skip(3).subscribe { log.print("skip: \($0)") }
    log.code("flaky.retry(3) — fails twice, then answers")
    let attempts = Locked(0)
    _ = Signal<String, RequestError> { subscriber in
        let attempt = attempts.withLock { $0 += 1; return $0 }
        log.print("retry: attempt \(attempt)")
        if attempt < 3 { subscriber.sendError(RequestError()) } else { subscriber.send("ok") }
        subscriber.sendComplete()
        return .empty
    }.retry(3).subscribe(value: { log.print("retry: \($0)") }, error: { _ in log.print("retry: gave up") })
    log.code("signal.finally { … }")
    _ = numbers([1]).finally { log.print("finally: after complete") }
        .subscribe(complete: { log.print("finally: complete") })
    log.code("signal.map { _ in \"new value\" }")
    _ = numbers([1]).map { _ in "new value" }.subscribe { log.print("map: \($0)") }
    log.code("signal.flatMap { n in [n, n * 10] }")
    _ = numbers([1, 2]).flatMap { numbers([$0, $0 * 10]) }.subscribe { log.print("flatMap: \($0)") }
    log.code("signal1.then(signal2)")
    _ = numbers([1, 2]).then(numbers([7])).subscribe { log.print("then: \($0)") }
    log.code("signal1.merge(signal2, signal3)")
    _ = numbers([1]).merge(numbers([2]), numbers([3])).subscribe(value: { log.print("merge: \($0)") },
                                                             complete: { log.print("merge: complete") })
    log.code("signal1.combineLatest(signal2) — GYSignal's zip: latest values once both have sent")
    _ = numbers([1, 2]).combineLatest(Signal<String, Never>.just("a"))
        .subscribe(value: { log.print("combineLatest: (\($0.0), \($0.1))") },
                   complete: { log.print("combineLatest: complete") })
    log.code("signal1.zip(signal2) — Rx zip: pairs by position")
    _ = numbers([1, 2, 3]).zip(Signal<String, Never>.just("a").merge(.just("b")))
        .subscribe { log.print("zip: (\($0.0), \($0.1))") }

    log.heading("GYSignal — 双向绑定: different() breaks the loop")
    log.code("model.$num.different() → textField.text; textField.$text.different() → model.num")
    let num = ObservableProperty(0)
    let text = ObservableProperty("0")
    let toView = num.signal.different().subscribe { value in
        log.print("model → view: text = \"\(value)\"")
        text.value = String(value)
    }
    let toModel = text.signal.different().subscribe { value in
        log.print("view → model: num = \(value)")
        num.value = Int(value) ?? 0
    }
    num.value = 5
    text.value = "42"
    log.print("num=\(num.value) text=\(text.value), no loop")
    toView.dispose()
    toModel.dispose()
}
