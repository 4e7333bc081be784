import RippleCore

// Invariants: what an action must remember about each host it saw (a per-host once action's "already fired here", the
// visible stack's entries for the host) is kept in that host's own `LifecycleActionList`, under a serial that names
// the action and is never reused, so it lives and dies with the host: no action keeps a table of hosts, and neither a
// freed host's address nor a freed action's can be mistaken for a new one's.
//
// Why: the once action and the visible stack kept weak references to every host they served or showed and scanned
// them on each event, so n live hosts appearing cost n² (20,000 hosts: about a minute in a debug build).

/// What actions remember about one host; stored in the host's ``LifecycleActionList``.
struct HostMarks {
    /// The serials of the per-host once actions that fired for this host.
    var servedOnce: Set<UInt64> = []
    /// By visible stack serial: the positions of this host's entries in that stack, oldest first.
    var stackPositions: [UInt64: [UInt64]] = [:]
}

/// Serials for the actions that mark hosts: unique for the life of the process.
enum ActionSerial {
    private static let last = Locked<UInt64>(0)

    static func next() -> UInt64 {
        last.withLock { last in
            last += 1
            return last
        }
    }
}
