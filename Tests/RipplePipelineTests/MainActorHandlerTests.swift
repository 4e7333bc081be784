import Dispatch
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// A view model as an app writes it: plain main-actor state, bound to a plumber with no `MainActor.assumeIsolated`.
/// Compiles in strict Swift 6 only because the handlers of the `onMainActor…` forms are `@MainActor`.
@MainActor
final class NumbersViewModel {
    private(set) var outputs: [Int] = []
    private(set) var blocked: [String] = []
    private(set) var failures: [String] = []
    private(set) var onMainQueue: [Bool] = []
    /// Counts the updates, so a test can wait for them without sleeping.
    let updates = Tally()

    func bind(to plumber: Plumber<Number>) {
        plumber
            .onMainActorOutput { [weak self] packet in self?.update { $0.outputs.append(packet.value) } }
            .onMainActorBlocked { [weak self] packet, stage in
                self?.update { $0.blocked.append("\(packet.value) \(stage)") }
            }
            .onMainActorFailure { [weak self] packet, stage, error in
                self?.update { $0.failures.append("\(packet.value) \(stage.name) \(error)") }
            }
    }

    private func update(_ change: (NumbersViewModel) -> Void) {
        change(self)
        onMainQueue.append(MainQueue.isCurrent)
        updates.hit()
    }
}


/// Passes even values, blocks odd ones, fails on negative ones (asynchronously).
private func evenPlumber() -> (Plumber<Number>, NumberPort) {
    let port = NumberPort()
    let plumber = Plumber<Number>()
        .addPort(port)
        .addPipeline(AsyncClosureStage("NonNegative") { (packet: Number) in
            if packet.value < 0 { throw StageError(reason: "negative") }
            return packet
        })
        .addPipeline(ClosureStage("Even") { (packet: Number, next) in
            if packet.value.isMultiple(of: 2) { next(packet) }
        })
    return (plumber, port)
}

@Suite("Main actor: a plumber's handlers in their @MainActor form", .timeLimit(.minutes(10)))
struct MainActorHandlerTests {
    @Test func outcomesFromOtherThreadsReachTheViewModelOnTheMainQueue() async {
        let (plumber, port) = evenPlumber()
        let model = await MainActor.run {
            let model = NumbersViewModel()
            model.bind(to: plumber)
            return model
        }
        await Task.detached {
            #expect(!MainQueue.isCurrent)
            for value in 0..<50 { port.emit(Number(value), portNumber: 0) }
        }.value
        // The asynchronous stage finishes on tasks, in any order: 25 outputs and 25 blocks.
        await model.updates.wait(for: 50)
        await MainActor.run {
            #expect(model.outputs.sorted() == Array(stride(from: 0, to: 50, by: 2)))
            #expect(model.blocked.count == 25)
            #expect(model.onMainQueue == Array(repeating: true, count: 50))
        }
        withExtendedLifetime(plumber) {}
    }

    @Test func outcomesReachTheViewModelInTheOrderTheyHappened() async {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port).addPipeline(Mark("m"))
        let model = await MainActor.run {
            let model = NumbersViewModel()
            model.bind(to: plumber)
            return model
        }
        await Task.detached {
            for value in 0..<200 { port.emit(Number(value), portNumber: 0) }
        }.value
        await model.updates.wait(for: 200)
        await MainActor.run { #expect(model.outputs == Array(0..<200)) }
        withExtendedLifetime(plumber) {}
    }

    @Test func blockedAndFailedPacketsReachTheViewModelWithTheirStage() async {
        let (plumber, _) = evenPlumber()
        let model = await MainActor.run {
            let model = NumbersViewModel()
            model.bind(to: plumber)
            return model
        }
        let results = await Task.detached {
            [await plumber.process(Number(3)), await plumber.process(Number(-2)), await plumber.process(Number(4))]
        }.value
        #expect(results.map(\.stoppingStage?.name) == ["Even", "NonNegative", nil])
        await model.updates.wait(for: 3)
        await MainActor.run {
            #expect(model.outputs == [4])
            #expect(model.blocked == ["3 Even (stage 1)"])
            #expect(model.failures == ["-2 NonNegative StageError(reason: \"negative\")"])
            #expect(model.onMainQueue == [true, true, true])
        }
    }

    @MainActor
    @Test func anOutcomeOnTheMainThreadIsEnqueuedNotRunInline() async {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let model = NumbersViewModel()
        model.bind(to: plumber)
        port.emit(Number(1), portNumber: 0)
        #expect(model.outputs == [], "runs once the current main-queue work returns")
        await model.updates.wait(for: 1)
        #expect(model.outputs == [1])
    }

    @MainActor
    @Test func theMainActorFormsReplaceTheOthersAndAreReplacedByThem() async {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let plain = Recorder<Int>()
        plumber.onOutput { plain.record($0.value) }
        let model = NumbersViewModel()
        model.bind(to: plumber)
        port.emit(Number(1), portNumber: 0)
        await model.updates.wait(for: 1)
        plumber.onOutput { plain.record($0.value) }
        port.emit(Number(2), portNumber: 0)
        #expect(plain.values == [2])
        #expect(model.outputs == [1])
    }

    @MainActor
    @Test func aViewModelBoundWeaklyIsFreedAndLaterOutcomesAreDropped() async {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let done = Tally()
        weak var weakModel: NumbersViewModel?
        do {
            let model = NumbersViewModel()
            weakModel = model
            model.bind(to: plumber)
        }
        #expect(weakModel == nil)
        port.emit(Number(1), portNumber: 0)
        DispatchQueue.main.async { done.hit() }
        await done.wait(for: 1)
        #expect(plumber.unhandled.total == 0, "the handler ran and found the model gone")
    }
}
