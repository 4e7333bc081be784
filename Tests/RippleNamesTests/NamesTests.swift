// Ripple beside Foundation and Combine (OpenCombine on Linux): every public type of Ripple is named unqualified here.
// If a name became ambiguous ("ambiguous for type lookup") or resolved to Foundation's or Combine's type, this file
// would stop compiling or the module check below would fail.
import Foundation
import OpenCombine
import Ripple
import RippleTesting
import Testing

private struct NamesPacket: Packet {
    var portNumber = 0
}

private struct NamesActions {
    var act = ActionKey<Int, Double>("act:")
}

@Suite("Names beside Foundation and Combine")
struct NamesTests {
    /// Every public type, unqualified, with the module its name must resolve to.
    static let types: [(type: Any.Type, module: String)] = [
        (CancelBag.self, "RippleCore"), ((any CancelToken).self, "RippleCore"), (ClosureCancelToken.self, "RippleCore"),
        ((any ListenerOwner).self, "RippleCore"), (QueueScheduler.self, "RippleCore"),
        (RippleDiagnostics.self, "RippleCore"), ((any Scheduling).self, "RippleCore"),
        (SynchronousScheduler.self, "RippleCore"),
        (Node<Int>.self, "RippleNodes"), (MutableNode<Int>.self, "RippleNodes"), (ListenEdge<Int>.self, "RippleNodes"),
        (Listening<Int>.self, "RippleNodes"), (Transform<Int, Int>.self, "RippleNodes"),
        (IfResult<Int>.self, "RippleNodes"), (Keyed<String, Int>.self, "RippleNodes"),
        (SwitchedNodes<String, Int>.self, "RippleNodes"), (GraphFormat.self, "RippleNodes"),
        ((any GraphNode).self, "RippleNodes"), ((any GraphEdge).self, "RippleNodes"),
        ((any NodeInitializable).Type.self, "RippleNodes"), (PropertyBindingContext.self, "RippleNodes"),
        (SenderList.self, "RippleNodes"), (SenderSnapshot.self, "RippleNodes"), (TraversalStep.self, "RippleNodes"),
        (Signal<Int, Never>.self, "RippleSignals"), (SignalSubscriber<Int, Never>.self, "RippleSignals"),
        (Disposer.self, "RippleSignals"), (ObservableProperty<Int>.self, "RippleSignals"),
        (SignalProperty<Int>.self, "RippleSignals"), (SignalBufferingPolicy.self, "RippleSignals"),
        (SignalValues<Int, Never>.self, "RippleSignals"),
        (ActionPipe<NamesActions>.self, "RipplePipes"), (StatefulActionPipe<NamesActions>.self, "RipplePipes"),
        (ActionKey<Int, Double>.self, "RipplePipes"), (ActionCall<NamesActions, Int, Double>.self, "RipplePipes"),
        (ActionRegistration<NamesActions, Int, Double>.self, "RipplePipes"), (ActionProcess.self, "RipplePipes"),
        (ActionState.self, "RipplePipes"), (PipeTuple.self, "RipplePipes"),
        ((any ActionProtocolKeys).self, "RipplePipes"), (ActionProxyResult.self, "RipplePipes"),
        (PreparedActionPipe<NamesActions>.self, "RipplePipes"),
        (PreparedActionCall<NamesActions, Int, Double>.self, "RipplePipes"), (UnhandledOutcomes.self, "RipplePipeline"),
        ((any Packet).self, "RipplePipeline"), (PacketPort<NamesPacket>.self, "RipplePipeline"),
        ((any PacketSource<NamesPacket>).self, "RipplePipeline"), (PacketOutlet<NamesPacket>.self, "RipplePipeline"),
        (Plumber<NamesPacket>.self, "RipplePipeline"), ((any PipelineStage<NamesPacket>).self, "RipplePipeline"),
        ((any AsyncPipelineStage<NamesPacket>).self, "RipplePipeline"), (ClosureStage<NamesPacket>.self, "RipplePipeline"),
        (AsyncClosureStage<NamesPacket>.self, "RipplePipeline"), (Next<NamesPacket>.self, "RipplePipeline"),
        (PipelineResult<NamesPacket>.self, "RipplePipeline"), (StageInfo.self, "RipplePipeline"),
        (LifecycleAction.self, "RippleLifecycle"), (BlockLifecycleAction.self, "RippleLifecycle"),
        (LifecycleActionList.self, "RippleLifecycle"), (LifecycleActions.self, "RippleLifecycle"),
        (LifecycleController.self, "RippleLifecycle"), (LifecycleEvent.self, "RippleLifecycle"),
        ((any LifecycleHost).self, "RippleLifecycle"), (LifecyclePhase.self, "RippleLifecycle"),
        (OnceLifecycleAction.self, "RippleLifecycle"), (VisibleStack.self, "RippleLifecycle"),
        (SignalNode<Int, Never>.self, "Ripple"), (SignalTermination<Never>.self, "Ripple"),
        (TestScheduler.self, "RippleTesting"), (Recorder<Int>.self, "RippleTesting"),
        (LeakTracker.self, "RippleTesting"), (Recorded<Int>.self, "RippleTesting"),
        (RecordedDifference<Int>.self, "RippleTesting"), (TestSignal<Int, Never>.self, "RippleTesting"),
        (TestSubscription.self, "RippleTesting"), (NewestFirstScheduler.self, "RippleTesting"),
    ]

    @Test func everyPublicTypeResolvesToRipple() {
        for (type, module) in Self.types {
            let name = String(reflecting: type)
            #expect(name.hasPrefix(module + ".") || name.hasPrefix("any " + module + ".")
                        || name.hasPrefix("(any " + module + "."), "\(name) should come from \(module)")
        }
    }

    /// The names Combine users reach for still mean Combine's types, side by side with Ripple's.
    @Test func combineAndFoundationKeepTheirNames() {
        let subject = PassthroughSubject<Int, Never>()
        var heard: [Int] = []
        let cancellable: AnyCancellable = subject.sink { heard.append($0) }
        let scheduler: ImmediateScheduler = .shared
        scheduler.schedule { subject.send(1) }
        cancellable.cancel()
        subject.send(2)
        #expect(heard == [1])
        #expect(String(reflecting: Port.self).hasPrefix("Foundation."))
        let node = MutableNode(1)
        let bag = CancelBag()
        let rippleHeard = Recorder<Int>()
        let ripple: any CancelToken = node.listened(by: bag).withBlock { rippleHeard.record($0) }
        node.value = 3
        ripple.cancel()
        node.value = 4
        #expect(rippleHeard.values == [1, 3])
    }

    /// Ripple's unavailable Combine spellings (`sink`, `receive(on:)`, `removeDuplicates`, `eraseToAnyPublisher`,
    /// `handleEvents(receiveOutput:)`) are members of `Signal` and `Node` only: on Combine's publishers the same
    /// spellings still resolve to Combine, and Ripple's own names to Ripple, in one file importing both.
    @Test func combineSpellingsStillWorkOnPublishers() {
        let subject = PassthroughSubject<Int, Never>()
        var heard: [Int] = []
        var handled: [Int] = []
        let cancellable = subject
            .removeDuplicates()
            .handleEvents(receiveOutput: { handled.append($0) })
            .receive(on: ImmediateScheduler.shared)
            .eraseToAnyPublisher()
            .sink { heard.append($0) }
        subject.send(1)
        subject.send(1)
        subject.send(2)
        cancellable.cancel()
        #expect(heard == [1, 2])
        #expect(handled == [1, 2])

        let rippleHeard = Recorder<Int>()
        let rippleHandled = Recorder<Int>()
        let subscription = Signal<Int, Never>.empty.prepend(1, 1, 2)
            .distinctUntilChanged()
            .handleEvents(value: { rippleHandled.record($0) })
            .deliver(on: SynchronousScheduler())
            .subscribe(value: { rippleHeard.record($0) })
        #expect(rippleHeard.values == [1, 2])
        #expect(rippleHandled.values == [1, 2])
        #expect(subscription.isDisposed)
    }
}
