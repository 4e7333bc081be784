import RippleCore

/// A port's wiring: the plumbers it feeds and the ``Route`` its `emit` runs, in an object of its own (held by the
/// port's ``PacketOutlet``) rather than inline in the port: stored inline in the open generic `PacketPort`
/// (subclassed in other modules), the snapshot's non-copyable struct of atomics corrupted the heap in debug builds on
/// Swift 6.3 (`free(): invalid next size` when a port was freed; not isolated further, `final` did not help). In this
/// non-generic final class it behaves, as `RipplePipes`' `PipeCore` shows.
@usableFromInline
final class PortWiring: Sendable {
    /// Each a `PlumberCore<P>`. Cores, not plumbers: a freed plumber shuts its core down; the port skips it and
    /// prunes it on the next wiring.
    let plumbers = ObjectList()
    @usableFromInline let snapshot = PublishedSnapshot<Route>(readerUnit: Route.readerUnit)

    init() {
        portCounter.increment()
    }

    deinit {
        portCounter.decrement()
    }
}

let portCounter = LiveObjectCounter("RipplePipeline.PacketPort")
