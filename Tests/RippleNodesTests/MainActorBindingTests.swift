import Dispatch
import Observation
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The usual SwiftUI model: `@MainActor @Observable`, so its key paths are not `Sendable`.
@MainActor @Observable
final class Article {
    var title = "untitled"
    var likes = 0
    var shares = 0
}

/// A `@MainActor` view model binding that model to nodes both ways. That this compiles in the Swift 6 language mode
/// (strict concurrency) is the compile test.
@MainActor
final class ArticleViewModel {
    let article = Article()
    let bag = CancelBag()
    /// property → node
    let likes: Node<Int>
    /// node → property
    let shares = MutableNode(0)
    /// both ways
    let title = MutableNode("draft")

    init() {
        likes = Node.observing(article, \.likes, on: .main)
        shares.bind(to: article, \.shares, on: .main, by: bag)
        title.sync(with: article, \.title, on: .main, by: bag)
    }
}

/// Lets everything already queued on the main queue run (it is FIFO), without sleeping.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
}

@Suite("Binding: @MainActor @Observable models", .timeLimit(.minutes(1)))
struct MainActorBindingTests {
    @Test @MainActor func observingEndsOnTheLastWrittenValue() async {
        let viewModel = ArticleViewModel()
        let seen = Recorder<Int>()
        viewModel.likes.listened(by: viewModel.bag).withBlock { seen.record($0) }
        viewModel.article.likes = 1
        viewModel.article.likes = 2
        await drainMainQueue()
        #expect(viewModel.likes.value == 2)
        #expect(seen.values == [0, 2])  // one synchronous burst arrives as its latest value, never a stale one
        viewModel.article.likes = 3
        await drainMainQueue()
        #expect(seen.values == [0, 2, 3])
    }

    @Test @MainActor func bindWritesOnTheMainQueueFromAnyThread() async {
        let viewModel = ArticleViewModel()
        let shares = viewModel.shares
        await drainMainQueue()
        #expect(viewModel.article.shares == 0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                shares.value = 5
                done.resume()
            }
        }
        await drainMainQueue()
        #expect(viewModel.article.shares == 5)
    }

    @Test @MainActor func syncGoesBothWaysAndSettles() async {
        let viewModel = ArticleViewModel()
        #expect(viewModel.title.value == "untitled")  // the node takes the model's value first
        viewModel.title.value = "typed"
        #expect(viewModel.article.title == "typed")
        viewModel.article.title = "edited"
        viewModel.article.title = "edited again"
        await drainMainQueue()
        #expect(viewModel.title.value == "edited again")
        #expect(viewModel.article.title == "edited again")
    }

    @Test @MainActor func aTestSchedulerDrivesAMainActorModel() {
        let scheduler = TestScheduler()
        let article = Article()
        let likes = Node.observing(article, \.likes, on: scheduler)
        article.likes = 7
        #expect(likes.value == 0)
        scheduler.run()
        #expect(likes.value == 7)
    }

    @Test func observingRefusesImmediate() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Node.observing(Profile(), \.title, on: .immediate)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.observing(_:_:on:) cannot use .immediate: Observation reports a change before"))
    }

    @Test func syncRefusesImmediate() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let bag = CancelBag()
            MutableNode("a").sync(with: Profile(), \.title, on: .immediate, by: bag)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MutableNode.sync(with:_:on:by:) cannot use .immediate: Observation reports"))
    }
}
