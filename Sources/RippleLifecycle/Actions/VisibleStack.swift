/// The hosts on screen now, bottom to top — the seed's global `UIStack` (`DZUIStackLifeCircleAction`).
///
/// A global action: a host is pushed when it appears (`didAppear`) and every occurrence of it is removed when it
/// disappears (`didDisappear`). Entries are weak; hosts freed without disappearing are compacted away. It tracks
/// what is being shown, not how views are layered.
///
/// Swift has no `+load`, so install it once at startup:
///
/// ```swift
/// VisibleStack.shared.install()
/// // … navigation …
/// VisibleStack.shared.top            // the host on top of what is showing
/// ```
@MainActor
public final class VisibleStack: LifecycleAction {
    /// The stack for the whole app, installed with ``install(in:)``.
    public static let shared = VisibleStack(identifier: "Ripple.VisibleStack.shared")

    private var entries: [WeakHost] = []

    /// The hosts showing now, bottom to top.
    public var hosts: [any LifecycleHost] {
        compact()
        return entries.compactMap(\.host)
    }

    /// The host on top of what is showing, if any.
    public var top: (any LifecycleHost)? {
        compact()
        return entries.last?.host
    }

    /// Number of entries held, freed ones included until the next compaction (for tests).
    var storedEntryCount: Int {
        entries.count
    }

    /// Starts tracking: registers this stack as a global action of `registry`. Installing twice changes nothing.
    public func install(in registry: LifecycleActions = .shared) {
        registry.register(self)
    }

    /// Stops tracking appearances through `registry`; the hosts already on the stack stay until they disappear.
    public func uninstall(from registry: LifecycleActions = .shared) {
        registry.remove(self)
    }

    override public func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        compact()
        entries.append(WeakHost(host))
    }

    override public func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        entries.removeAll { $0.host == nil || $0.host === host }
    }

    private func compact() {
        entries.removeAll { $0.host == nil }
    }
}
