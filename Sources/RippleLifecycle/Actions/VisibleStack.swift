// Invariants: `entries` is in push order with ascending `position`s; a host keeps the positions of its own entries
// in its marks (`HostMarks`, under this stack's `serial`), so `didDisappear` finds them by binary search instead of
// scanning the stack. An entry whose host disappeared is emptied (`gaps` counts those); entries whose host was freed
// without disappearing are dropped when the stack is compacted: once the empty entries are half of it, or once it has
// doubled since the last compaction, so each push or pop costs O(log n) amortised. Why: every push and every pop
// scanned the whole stack, so n hosts showing cost n² (20,000 hosts: about a minute in a debug build).

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

    private struct Entry {
        let position: UInt64
        /// nil once the host disappeared (the entry is one of `gaps`).
        var host: WeakHost?
    }

    /// Names this stack in the marks of the hosts it shows.
    private let serial = ActionSerial.next()
    private var entries: [Entry] = []
    private var nextPosition: UInt64 = 0
    private var gaps = 0
    private var countAfterCompaction = 0
    /// Entries visited by compactions, for the tests that check the cost of a push or pop (a count, not a timing).
    private(set) var compactedEntries = 0

    /// The hosts showing now, bottom to top.
    public var hosts: [any LifecycleHost] {
        compact()
        return entries.compactMap { $0.host?.host }
    }

    /// The host on top of what is showing, if any.
    public var top: (any LifecycleHost)? {
        // Drops the entries above the top host as it goes: each is dropped once.
        while let last = entries.last {
            guard let slot = last.host else {
                entries.removeLast()
                gaps -= 1
                continue
            }
            if let host = slot.host { return host }
            entries.removeLast()
        }
        return nil
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
        let position = nextPosition
        nextPosition += 1
        entries.append(Entry(position: position, host: WeakHost(host)))
        host.lifecycleActions.marks.stackPositions[serial, default: []].append(position)
        if entries.count >= 2 * Swift.max(countAfterCompaction, 8) {
            compact()
        }
    }

    override public func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        guard let positions = host.lifecycleActions.marks.stackPositions.removeValue(forKey: serial) else { return }
        for position in positions {
            // Always found: `top` and compactions drop only emptied entries and those of freed hosts.
            guard let index = index(of: position) else { continue }
            entries[index].host = nil
            gaps += 1
        }
        if gaps > entries.count / 2 {
            compact()
        }
    }

    /// The index of the entry at `position`, if it is still held.
    private func index(of position: UInt64) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].position < position { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].position == position ? low : nil
    }

    /// Drops the emptied entries and those of freed hosts.
    private func compact() {
        compactedEntries += entries.count
        entries.removeAll { $0.host?.host == nil }
        gaps = 0
        countAfterCompaction = entries.count
    }
}
