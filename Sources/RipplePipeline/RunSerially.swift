/// Runs `packet` through `stages` in order (the seed's `serialPipeSpliceFunc`) without a plumber to keep, and
/// returns how it left: the output of the last stage, or the first stage that blocked it.
///
/// ```swift
/// let result = await runSerially([CheckLogin(), CheckDocAttribute()], packet)
/// if case .blocked(_, let stage) = result { print("stopped at", stage.name) }
/// ```
///
/// Stages after the first block never see the packet. The packet's port number is left as it is.
public func runSerially<P: Packet>(_ stages: [any PipelineStage<P>], _ packet: P) async -> PipelineResult<P> {
    let plumber = Plumber<P>()
    for stage in stages {
        plumber.addPipeline(stage)
    }
    return await plumber.process(packet)
}
