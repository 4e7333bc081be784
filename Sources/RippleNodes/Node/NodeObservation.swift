import Observation

// How a node takes part in Swift Observation, so a SwiftUI view reading `node.value` re-renders when it changes.
//
// Invariants:
// - A node's `ObservationRegistrar` is created on the first read of its value through the public API (`value`,
//   `value(or:)`, `withValue`), kept in `observation` and never replaced. Observation offers no way to ask whether a
//   read happens inside tracking, so that first read pays for it (one object and the registrar's own); a node nobody
//   reads pays a load and a branch per settle, and the slot's 8 bytes (which the allocator's rounding absorbed for a
//   `map` node: 556 resident bytes before, 555 after). `isEmpty` does not register: the engine's operators ask it
//   while linking, and would make every inner node of `flattenMap` observable.
// - A node notifies when it settles (a set, a push from upstream, the end of a batch): once per transaction, with
//   `willSet` then `didSet`, both after the value is stored, outside the node's lock, in the frame, before its
//   listeners. Emptying (`clean()`) notifies too, although listeners hear nothing: `value` changed.
// - Observation never runs under a node lock: `onChange` is user code, and it may read or set this very node.
//
// Cost, for nodes nobody reads (callgrind, `Benchmarks/callgrind/NodesCallgrind.swift` against a release build,
// instructions per unit, without → with): SubjectPumping 257 → 260, MapFilterPumping 2,597 → 2,637 (+1.5 %),
// CombineLatestPumping 3,561 → 3,600, FlatMapLatestPumping 7,075 → 7,158, FanOut100 11,544 → 11,548, DeepChain100
// 20,712 → 21,014, Diamond 1,644 → 1,656; SubjectCreating 3,513 → 3,526, MapFilterCreating 62,199 → 62,404,
// FlatMapLatestCreating 34,336 → 34,494, CombineLatestCreating 212,749 → 213,265. Moving the flags together to pay
// for the slot with padding measured 540 resident bytes per `map` node but MapFilterCreating +2.4 % (the allocator's
// size classes), so it was not kept. A node whose value was read once (a registrar, nobody tracking) pays
// Observation's `willSet` and `didSet` on every settle, each a look-up of the key path in the registrar's table:
// SubjectPumping 262 → 1,200 with `source.value` read before pumping. Notifying only when `value` was read since
// the last notification was tried and dropped: `withObservationTracking` registers with the registrar after its
// closure returns, so a set on another thread between the read and the registration clears the flag, and the later
// sets skip a registration they must reach (a SwiftUI view left stale; `tracksAndSetsFromSeveralThreads` catches it).

extension Node: Observable {}

/// A node's Observation registrar and the key path it reports, both made once.
@usableFromInline
final class NodeObservation {
    let registrar = ObservationRegistrar()
    /// `\Node<Value>.value`: in unspecialised code a generic key path literal is built anew at each use.
    let valueKeyPath: AnyKeyPath

    init(valueKeyPath: AnyKeyPath) {
        self.valueKeyPath = valueKeyPath
    }
}

extension Node {
    /// Reads with `read` under the lock, then tells Observation that `value` was read (outside the lock).
    final func trackedRead<Result>(_ read: () -> Result) -> Result {
        lock.lock()
        let result = read()
        let observation: NodeObservation
        if let existing = self.observation {
            observation = existing
        } else {
            observation = NodeObservation(valueKeyPath: \Node<Value>.value)
            self.observation = observation
        }
        lock.unlock()
        observation.registrar.access(self, keyPath: Self.valueKeyPath(observation))
        return result
    }

    private static func valueKeyPath(_ observation: NodeObservation) -> KeyPath<Node<Value>, Value?> {
        unsafeDowncast(observation.valueKeyPath, to: KeyPath<Node<Value>, Value?>.self)
    }

    /// Tells Observation that `value` changed: the node has settled (or was emptied) and is unlocked.
    @usableFromInline
    final func notifyObservation() {
        lock.lock()
        let observation = self.observation
        lock.unlock()
        guard let observation else { return }
        let keyPath = Self.valueKeyPath(observation)
        observation.registrar.willSet(self, keyPath: keyPath)
        observation.registrar.didSet(self, keyPath: keyPath)
    }
}
