import RippleCore

// Both forms run the packet through a plumber of their own that nobody else sees; the stages and the packet's port
// number are left as they are. Every stage after the first block is skipped; a fan-out returns the first outcome.

/// Runs `packet` through `stages` in order (the seed's `serialPipeSpliceFunc`) without a plumber to keep, and
/// returns how it left: the output of the last stage, or the first stage that blocked it.
///
/// ```swift
/// let result = await runSerially([CheckLogin(), CheckDocAttribute()], packet)
/// if case .blocked(_, let stage) = result { print("stopped at", stage.name) }
/// ```
///
/// A stage may keep its `next` and call it later, from any thread; this waits for the outcome. For stages that
/// decide during `receive`, the synchronous form of `runSerially(_:_:)` needs no `await`.
public func runSerially<P: Packet>(_ stages: [any PipelineStage<P>], _ packet: P) async -> PipelineResult<P> {
    await serialPlumber(stages).process(packet)
}

/// Runs `packet` through `stages` in order on the calling thread, as the seed's `serialPipeSpliceFunc` does, and
/// returns how it left: the output of the last stage, or the first stage that blocked it.
///
/// ```swift
/// let result = runSerially([CheckLogin(), CheckDocAttribute()], packet)
/// ```
///
/// Every stage must pass `next` on or let it go before its `receive` returns, as synchronous stages do. A stage that
/// keeps `next` to call it later leaves no outcome to return: that stops the program with a message naming the
/// stage (use `await runSerially(_:_:)` for such stages). In an `async` function Swift picks the `async` form;
/// both give the same result for synchronous stages.
public func runSerially<P: Packet>(_ stages: [any PipelineStage<P>], _ packet: P) -> PipelineResult<P> {
    let plumber = serialPlumber(stages)
    let (result, keptAt) = plumber.processSynchronously(packet)
    if let result {
        return result
    }
    let kept = keptAt.map { plumber.stages[$0].description } ?? "a stage"
    programmerError("runSerially(_:_:) without await needs stages that pass or drop `next` before `receive` "
                    + "returns; \(kept) kept it — use `await runSerially(_:_:)`")
}

private func serialPlumber<P: Packet>(_ stages: [any PipelineStage<P>]) -> Plumber<P> {
    let plumber = Plumber<P>()
    plumber.addPipelines(stages)
    return plumber
}
