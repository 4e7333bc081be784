// The documented view-model patterns, built and dropped: each frees its model and what fed it (the lifetime rule:
// a handle you drop stops the work; the model keeps its handles, so freeing the model stops everything).
import Ripple
import RippleTesting
import Testing

private struct Search: Packet {
    var portNumber = 0
    var query: String
}

private struct NonEmpty: PipelineStage {
    func receive(_ packet: Search, next: Next<Search>) {
        if !packet.query.isEmpty { next(packet) }
    }
}

/// RippleSignals, "Signals and Swift concurrency": a handle in a property, no `deinit`.
@MainActor private final class SignalSearchModel {
    var results: [String] = []
    var failed = false
    var subscription: Disposer?

    func show(_ search: Signal<[String], any Error>) {
        subscription = search.subscribeOnMainActor(
            value: { [weak self] in self?.results = $0 },
            error: { [weak self] _ in self?.failed = true })
    }
}

/// RippleNodes, "Main actor and tokens": a listener owned by the model's bag.
@MainActor private final class TitleViewModel {
    private(set) var title = ""
    let bag = CancelBag()

    init(showing node: Node<String>) {
        node.listened(by: bag).withBlock(on: .main) { @MainActor [weak self] value in
            self?.title = value
        }
    }
}

/// RipplePipeline, "Main actor and tokens": the plumber in a property.
@MainActor private final class PipelineSearchModel {
    private(set) var query = ""
    let plumber = Plumber<Search>().addPipeline(NonEmpty())

    init(port: PacketPort<Search>) {
        plumber.addPort(port)
            .onMainActorOutput { [weak self] packet in self?.query = packet.query }
    }
}

/// The Ripple catalog's "Lifetimes": a `ListenerOwner` keeping a signal handle and a node listener in its bag.
private final class OwnerModel: ListenerOwner, Sendable {
    let cancelBag = CancelBag()
    let query = MutableNode("")
    let results = MutableNode<[String]>([])
    let length = MutableNode(0)

    init(answers: Signal<[String], Never>) {
        answers.subscribe(value: { [weak self] in self?.results.value = $0 }).store(in: cancelBag)
        query.listened(by: self).withTarget(self) { model, text in model.length.value = text.count }
    }
}

@Suite("View-model patterns from the docs free their model and its inputs")
@MainActor
struct ViewModelLifetimeTests {
    @Test("Signals: a model keeping its Disposer in a property, fed by a node, frees the model and the node")
    func signalsModel() {
        expectReleased { tracker in
            let query = tracker.track(MutableNode<String>(), "query node")
            let model = tracker.track(SignalSearchModel(), "model")
            model.show(query.signal.map { [$0] }.setFailureType(to: (any Error).self))
            #expect(model.subscription?.isDisposed == false)
        }
    }

    @Test("Signals: the same model fed by a source that never ends frees the source's subscription")
    func signalsModelOverManualSource() {
        let source = ManualSource<[String], any Error>()
        expectReleased { tracker in
            let model = tracker.track(SignalSearchModel(), "model")
            model.show(source.signal)
            #expect(source.isSubscribed)
        }
        #expect(!source.isSubscribed)
    }

    @Test("Nodes: a model whose bag owns a main-actor listener frees the model and the node")
    func nodesModel() {
        expectReleased { tracker in
            let name = tracker.track(MutableNode<String>(), "name node")
            _ = tracker.track(TitleViewModel(showing: name), "model")
            name.value = "Ripple"
        }
    }

    @Test("Pipeline: a model keeping its plumber frees the plumber and the model")
    func pipelineModel() {
        let port = PacketPort<Search>()
        expectReleased { tracker in
            let model = tracker.track(PipelineSearchModel(port: port), "model")
            _ = tracker.track(model.plumber, "plumber")
        }
    }

    @Test("Lifetimes: a ListenerOwner keeping a signal handle and a listener frees itself, its node and its source")
    func ownerModel() {
        let source = ManualSource<[String], Never>()
        expectReleased { tracker in
            let model = tracker.track(OwnerModel(answers: source.signal), "model")
            _ = tracker.track(model.query, "query node")
            model.query.value = "abc"
            source.send(["a"])
            #expect(model.length.value == 3)
            #expect(model.results.value == ["a"])
        }
        #expect(!source.isSubscribed)
    }
}
