import RipplePipeline
import RippleSignals

extension Plumber {
    /// A cold signal that runs `packet` through the plumber once per subscription: it sends how the packet left (the
    /// result of `process(_:portNumber:)`), then completes.
    ///
    /// ```swift
    /// plumber.processSignal(SharePacket(docId: "D1", userId: "U1"), portNumber: 100)
    ///     .subscribe(value: { print($0.output?.link ?? "stopped") })
    /// ```
    ///
    /// Each subscription starts a task that awaits `process`; the result arrives on that task's thread. Disposing
    /// before the result cancels the task, which cancels the packet's asynchronous stages; nothing is sent then.
    /// The handlers (`onOutput` and the others) run for the packet as they do for any `process` call. The
    /// subscription keeps the plumber alive until the result is sent or the subscription is disposed.
    public func processSignal(_ packet: P, portNumber: Int) -> Signal<PipelineResult<P>, Never> {
        Signal { [self] subscriber in
            let task = Task {
                let result = await self.process(packet, portNumber: portNumber)
                guard !Task.isCancelled else { return }
                subscriber.send(result)
                subscriber.sendComplete()
            }
            return Disposer { task.cancel() }
        }
    }
}
