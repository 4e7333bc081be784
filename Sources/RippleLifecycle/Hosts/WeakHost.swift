/// A weak reference to a host, for bookkeeping that must not keep hosts alive (the visible stack, per-host once
/// actions).
struct WeakHost {
    weak var host: (any LifecycleHost)?

    init(_ host: any LifecycleHost) {
        self.host = host
    }
}
