import RippleCore

/// A port's wiring: the plumbers it feeds and the ``Route`` its `emit` runs, in an object of its own (held by the
/// port's ``PacketOutlet``) rather than inline in the port: stored inline in the open generic `PacketPort`
/// (subclassed in other modules), the snapshot's non-copyable struct of atomics corrupted the heap in debug builds on
/// Swift 6.3 (`free(): invalid next size` when a port was freed; not isolated further, `final` did not help). In this
/// non-generic final class it behaves, as `RipplePipes`' `PipeCore` shows.
///
/// Invariants: the route is built lazily. A change (a wiring, a new chain of a wired plumber, a plumber freed) takes
/// the published route down and marks it stale; the next emit that finds none published builds it from the plumbers'
/// current chains (`PacketOutlet.routeBuiltIfStale()`). Both happen under `routing`'s lock, the only place the
/// snapshot is replaced, so a stale mark is never lost and an emit never reads "not wired" while a plumber is.
///
/// Why: the route was rebuilt over every wired plumber on each change, so one port wired into n plumbers, each then
/// given its stages and handlers, cost n² (2,000 plumbers: 1.3 s). Now a burst of changes costs one build, by the
/// next emit, which runs every chain of the route anyway.
@usableFromInline
final class PortWiring: Sendable {
    /// Each a `PlumberCore<P>`, once. Cores, not plumbers: a freed plumber shuts its core down; the port skips it
    /// and prunes it at the next build of its route.
    let plumbers = ObjectList()
    @usableFromInline let snapshot = PublishedSnapshot<Route>(readerUnit: Route.readerUnit)
    /// Guards the stale mark and every replacement of `snapshot` (see above).
    let routing = Locked(Routing())

    struct Routing {
        /// The published route (none) no longer matches the wiring; the next emit builds it.
        var isStale = false
        /// The chains every build so far went through, for the tests that check a wiring's cost (a count, not a
        /// timing).
        var chainsRouted = 0
    }

    init() {
        portCounter.increment()
    }

    deinit {
        portCounter.decrement()
    }
}

let portCounter = LiveObjectCounter("RipplePipeline.PacketPort")
