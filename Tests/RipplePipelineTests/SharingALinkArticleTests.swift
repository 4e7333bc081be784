import RipplePipeline
import RippleTesting
import Testing

// SharingALink.md's two owners of the share plumber, in the article's shape: `[weak self]` in the output handler of a
// plain class and of a `@MainActor` view model. That they compile here, in Swift 6 strict mode, is half the test.

/// A plain class: its handler may run on any thread, so it is `Sendable` (a class of `let`s, checked).
final class ArticleShareController: Sendable {
    let plumber: Plumber<SharePacket>
    let shareEventPort = ShareEventPort()
    let links = Recorder<String>()
    let done = Tally()

    init() {
        plumber = makeSharePlumber(port: shareEventPort)
    }

    func setupPipeline() {
        plumber.onOutput { [weak self] packet in self?.generateLink(packet.link!) }
    }

    func generateLink(_ link: String) {
        links.record(link)
        done.hit()
    }
}

/// A view model: main-actor state, no locks, no `MainActor.assumeIsolated`.
@MainActor
final class ArticleShareViewModel {
    private(set) var link: String?
    let plumber: Plumber<SharePacket>
    let shareEventPort = ShareEventPort()
    let done = Tally()

    init() {
        plumber = makeSharePlumber(port: shareEventPort)
    }

    func setupPipeline() {
        plumber.onMainActorOutput { [weak self] packet in self?.generateLink(packet.link!) }
    }

    func generateLink(_ link: String) {
        self.link = link
        done.hit()
    }
}

@Suite("SharingALink.md's plain class and @MainActor view model", .timeLimit(.minutes(10)))
struct SharingALinkArticleTests {
    @Test func thePlainClassReceivesTheLink() async {
        let controller = ArticleShareController()
        controller.setupPipeline()
        controller.shareEventPort.receiveShareEvent(["docId": "doc-42", "userId": "alice"])
        await controller.done.wait(for: 1)
        #expect(controller.links.values == ["https://docs.example.com/s/doc-42"])
    }

    @MainActor
    @Test func theViewModelReceivesTheLinkOnTheMainActor() async {
        let model = ArticleShareViewModel()
        model.setupPipeline()
        model.shareEventPort.receiveShareEvent(["docId": "doc-42", "userId": "alice"])
        await model.done.wait(for: 1)
        #expect(model.link == "https://docs.example.com/s/doc-42")
    }

    @MainActor
    @Test func theWeaklyCapturedOwnersAreFreedWithTheirPlumbers() {
        weak var weakModel: ArticleShareViewModel?
        weak var weakController: ArticleShareController?
        do {
            let model = ArticleShareViewModel()
            model.setupPipeline()
            weakModel = model
            let controller = ArticleShareController()
            controller.setupPipeline()
            weakController = controller
        }
        #expect(weakModel == nil)
        #expect(weakController == nil)
    }
}
