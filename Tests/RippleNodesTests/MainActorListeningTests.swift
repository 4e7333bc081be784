import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// A view model as a Swift 6 app writes it: `@MainActor`, updating itself from a node with no `assumeIsolated`.
/// That this file compiles in the Swift 6 language mode is the compile test.
@MainActor
final class TitleViewModel {
    private(set) var titles: [String] = []
    private(set) var everyCallOnMainQueue = true
    let bag = CancelBag()
    private var waiting: (count: Int, continuation: CheckedContinuation<Void, Never>)?

    init(showing node: Node<String>) {
        node.listened(by: bag).withBlock(on: .main) { @MainActor [weak self] value in
            self?.show(value)
        }
    }

    /// Also listens through a `@MainActor` method passed by name.
    func alsoListen(to node: Node<String>) {
        node.listened(by: bag).withBlock(on: .main, show)
    }

    func show(_ title: String) {
        everyCallOnMainQueue = everyCallOnMainQueue && MainQueue.isCurrent
        titles.append(title)
        if let waiting, titles.count >= waiting.count {
            self.waiting = nil
            waiting.continuation.resume()
        }
    }

    /// Suspends until `count` titles arrived (delivery is asynchronous, on the main queue).
    func waitForTitles(_ count: Int) async {
        guard titles.count < count else { return }
        await withCheckedContinuation { waiting = (count, $0) }
    }
}

@MainActor
final class MainActorLog {
    var entries: [String] = []
}

@Suite("Listening: @MainActor blocks on .main", .timeLimit(.minutes(1)))
struct MainActorListeningTests {
    @Test @MainActor func valuesSetOnOtherThreadsArriveOnTheMainQueueInOrder() async {
        let node = MutableNode("first")
        let viewModel = TitleViewModel(showing: node)
        #expect(viewModel.titles.isEmpty)  // even the current value goes through the main queue
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                node.value = "second"
                node.value = "third"
                done.resume()
            }
        }
        await viewModel.waitForTitles(3)
        #expect(viewModel.titles == ["first", "second", "third"])
        #expect(viewModel.everyCallOnMainQueue)
    }

    @Test @MainActor func contextBlockGetsTheSettersContext() async {
        let node = MutableNode(1)
        let bag = CancelBag()
        let received = MainActorLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            node.listened(by: bag).withContextBlock(on: .main) { @MainActor value, context in
                received.entries.append("\(value):\(context.map { "\($0)" } ?? "nil")")
                if value == 2 { done.resume() }
            }
            node.set(2, context: "typed")
        }
        #expect(received.entries == ["1:nil", "2:typed"])
    }

    @Test @MainActor func methodReferenceAndCancelling() async {
        let node = MutableNode("a")
        let viewModel = TitleViewModel(showing: node)
        viewModel.alsoListen(to: node)
        await viewModel.waitForTitles(2)
        #expect(viewModel.titles == ["a", "a"])
        viewModel.bag.cancel()
        node.value = "after cancel"
        // Anything still queued on the main queue runs before this continuation resumes.
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(viewModel.titles == ["a", "a"])
    }

    // A scheduler that does not run on the main actor (`.queue(q)`, `.immediate`, a plain `TestScheduler`) is not a
    // `MainActorScheduling`: `withBlock(on: .queue(q)) { @MainActor _ in }` does not compile ("converting function
    // value of type '@MainActor @Sendable (Int) -> ()' to '@Sendable (Int) -> Void' loses global actor 'MainActor'").
    // It stopped at run time before (issue 30).
}
