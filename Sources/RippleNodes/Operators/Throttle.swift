import RippleCore

/// Rate limit: at most one value per `interval`, the same rule as `Signal.throttle(_:on:latest:)`.
///
/// Invariants: a value arriving while no window is open passes at once and opens a window; values inside the window
/// are held (the latest, or the first when `latest` is false) and the held one is delivered when the window closes,
/// which opens the next window; a window that closes with nothing held leaves the edge idle.
///
/// `@unchecked Sendable`: `window` is only touched under `edgeLock`.
final class ThrottleTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    struct Held {
        var value: Value
        var senders: SenderSnapshot
        var context: (any Sendable)?
    }

    struct Window {
        var open = false
        var held: Held?
        var timer: (any CancelToken)?
    }

    let interval: Duration
    let scheduler: any Scheduling
    let latest: Bool
    private var window = Window()

    init(interval: Duration, scheduler: any Scheduling, latest: Bool) {
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let passNow = edgeLock.withLock { () -> Bool in
            if window.open {
                if latest || window.held == nil {
                    window.held = Held(value: value, senders: senders.snapshot(), context: context)
                }
                return false
            }
            window.open = true
            return true
        }
        guard passNow else { return }
        openWindow()
        emit(value, senders: senders, context: context)
    }

    private func openWindow() {
        let timer = scheduler.schedule(after: interval) { [weak self] in self?.windowEnded() }
        edgeLock.withLock { window.timer = timer }
    }

    /// Delivers the held value and opens the next window, or goes idle.
    private func windowEnded() {
        let held = edgeLock.withLock { () -> Held? in
            guard let held = window.held else {
                window = Window()
                return nil
            }
            window.held = nil
            return held
        }
        guard let held else { return }
        openWindow()
        emit(held.value, after: held.senders, context: held.context)
    }

    deinit {
        window.timer?.cancel()
    }
}

extension Node {
    /// A node receiving at most one value per `interval`: a value arriving while idle passes at once; values inside
    /// the window are held (the latest, or the first when `latest` is false) and delivered when it closes. Feeding 1…5
    /// every 30 ms with a 100 ms interval gives 1, 4, 5 — as `Signal.throttle(_:on:latest:)` does. For EasyReact's
    /// `throttle:queue:` (a quiet-period filter) use ``debounce(_:on:)``.
    public final func throttle(_ interval: Duration, on scheduler: some Scheduling, latest: Bool = true) -> Node<Value> {
        requirePositive(interval, "Node.throttle(_:on:latest:)")
        return derive("throttle", ThrottleTransform(interval: interval, scheduler: scheduler, latest: latest))
    }
}
