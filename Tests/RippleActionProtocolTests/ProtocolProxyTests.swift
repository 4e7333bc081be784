import Foundation
import RippleActionProtocol
import RippleTesting
import Testing

/// The seed's examples 1–6, called through the protocol itself (`(id<actionPipeProtocol>)pipe`), with the seed's
/// log lines.
@Suite struct ProtocolProxyTests {
    // 1 & 2: register a method, call it on the pipe as the protocol.
    @Test func registerAndCallThroughTheProtocol() {
        let log = Recorder<String>()
        let pipe = ActionPipe<ActionPipeProtocolKeys>()
        pipe.registerAction(\.someFunc).action { _, number, object in
            log("number _ \(number) , objc _ \(describe(object))")
            return 100.0
        }
        let actions: any ActionPipeProtocol = pipe.as(ActionPipeProtocol.self)
        let fReturn = actions.someFunc(number: 999, object: [1, 2, 3])
        log("result _ \(f(fReturn))")
        #expect(log.values == ["number _ 999 , objc _ [1, 2, 3]", "result _ 100.000000"])
    }

    // 3: three pipes composed; the protocol through the tail and through the head.
    @Test func composedPipesThroughTheProtocol() {
        let log = Recorder<String>()
        let pipes = (1...3).map { _ in ActionPipe<ActionPipeProtocolKeys>() }
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.someFunc2).action { _, size, object in
                log("pipe\(index + 1) _ called size: \(f(size.height)) \(f(size.width)) , \(describe(object))")
            }
        }
        pipes[1].registerAction(\.someFunc3).action { _ in log("someFunc3 called.") }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        pipes[2].as(ActionPipeProtocol.self).someFunc2(size: CGSize(width: 10, height: 20), object: "hello")
        pipes[0].as(ActionPipeProtocol.self).someFunc3()
        #expect(log.values == [
            "pipe1 _ called size: 20.000000 10.000000 , hello",
            "pipe2 _ called size: 20.000000 10.000000 , hello",
            "pipe3 _ called size: 20.000000 10.000000 , hello",
            "someFunc3 called.",
        ])
    }

    // 4.1: returnKindOf & returnNotNull, the seed's three calls.
    @Test func returnKindAndReturnNotNilThroughTheProtocol() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).action { _, _, object -> Any? in
            if object == nil {
                log("pipe1 _ return nil.")
                return nil
            }
            return object is [Any] ? Date() : NSObject()
        }
        let pipe2 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc).returnKind(of: Date.self).action { _, _, _ in
            log("pipe2 _ up steam return NSDate.")
            return nil
        }
        let pipe3 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe3.registerAction(\.someFunc).returnNotNil().action { _, _, _ in
            log("pipe3 _ up steam return not Null.")
            return nil
        }
        pipe1.addPipe(pipe2).addPipe(pipe3)
        pipe3.as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)
        #expect(log.values == ["pipe1 _ return nil."])
        log.reset()
        pipe2.as(ObjectPipeProtocol.self).someFunc(number: 0, object: [1, 2])
        #expect(log.values == ["pipe2 _ up steam return NSDate."])
        log.reset()
        pipe1.as(ObjectPipeProtocol.self).someFunc(number: 0, object: ["a": "aa"])
        #expect(log.values == ["pipe3 _ up steam return not Null."])
    }

    // 4.2: paramKindOf.
    @Test func paramKindThroughTheProtocol() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).param(2, kindOf: [Any].self).action { _, _, _ in
            log("pipe1 _ param objc is Array.")
            return nil
        }
        let actions = pipe1.as(ObjectPipeProtocol.self)
        actions.someFunc(number: 0, object: [1, 2])
        actions.someFunc(number: 0, object: "no array")
        #expect(log.values == ["pipe1 _ param objc is Array."])
    }

    // 4.3: states 1, 10 and 1 | 10, through the protocol of a state-filtered pipe.
    @Test func statesThroughTheProtocol() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).state(1).action { _, _, _ in
            log("pipe1 _ state 1.")
            return nil
        }
        let pipe2 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc).state(10).action { _, _, _ in
            log("pipe1 _ state 10.")
            return nil
        }
        pipe1.addPipe(pipe2)
        pipe1.doWithState(1).as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)
        #expect(log.values == ["pipe1 _ state 1."])
        log.reset()
        pipe1.doWithState(10).as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)
        #expect(log.values == ["pipe1 _ state 10."])
        log.reset()
        pipe1.doWithState(1 | 10).as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)
        #expect(log.values == ["pipe1 _ state 1.", "pipe1 _ state 10."])
    }

    // 5.1: extra values down the chain, here starting from the caller's tuple (doWithTuple).
    @Test func tupleThroughTheProtocol() {
        let log = Recorder<String>()
        let birthday = Date(timeIntervalSince1970: 1_624_476_088)
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).action { process, number, _ in
            process.updateTuple { $0.append("Robot No.\(number) birth day") }
            return nil
        }
        let pipe2 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc).action { process, _, _ in
            guard let (date, text) = process.tuple.unpack(Date.self, String.self) else { return nil }
            log("\(text) _ \(date.timeIntervalSince1970)")
            return date
        }
        pipe1.addPipe(pipe2)
        let fReturn = pipe1.doWithTuple([birthday]).as(ObjectPipeProtocol.self).someFunc(number: 999, object: nil)
        #expect(log.values == ["Robot No.999 birth day _ 1624476088.0"])
        #expect(fReturn as? Date == birthday)
    }

    // 5.2 and 5.3: a changed argument and the upstream return value.
    @Test func changedArgumentAndUpstreamReturnThroughTheProtocol() {
        let now = Date(timeIntervalSince1970: 1_624_557_034)
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).action { process, _, _ in
            #expect(process.changeArgument(at: 2, to: now as Any?))
            return [1, 2, 3]
        }
        let pipe2 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc).action { process, _, date in
            [date as? Date as Any, process.upstreamReturnValue as Any]
        }
        pipe1.addPipe(pipe2)
        let fReturn = pipe1.as(ObjectPipeProtocol.self).someFunc(number: 999, object: nil) as? [Any]
        #expect(fReturn?.first as? Date == now)
        #expect(fReturn?.last as? [Int] == [1, 2, 3])
    }

    // 6: an object registered for the whole protocol (registProtocol:delegate:), held weakly.
    @Test func anObjectRegisteredForTheProtocol() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        var delegate: TestObject? = TestObject(log: { log($0) })
        weak let weakDelegate = delegate
        pipe1.registerProtocol(delegate: delegate!)
        let fReturn = pipe1.as(ObjectPipeProtocol.self).someFunc(number: 999, object: "in instance object")
        log("result _ \(describe(fReturn))")
        #expect(log.values == ["TestObject , 999, in instance object", "result _ Token"])
        #expect(pipe1.responds(to: \.someFunc))

        delegate = nil
        #expect(weakDelegate == nil, "the pipe holds the delegate weakly")
        log.reset()
        #expect(pipe1.as(ObjectPipeProtocol.self).someFunc(number: 1, object: nil) == nil)
        #expect(log.values.isEmpty, "a freed delegate's actions are skipped")
    }

    @Test func aDelegateComposesWithOtherPipes() {
        let log = Recorder<String>()
        let delegate = TestObject(log: { log($0) })
        let before = ActionPipe<ObjectPipeProtocolKeys>()
        before.registerAction(\.someFunc).action { _, number, _ in
            log("before \(number)")
            return nil
        }
        let standIn = ActionPipe<ObjectPipeProtocolKeys>()
        standIn.registerProtocol(delegate: delegate)
        before.addPipe(standIn)
        let fReturn = before.as(ObjectPipeProtocol.self).someFunc(number: 7, object: nil)
        #expect(log.values == ["before 7", "TestObject , 7, nil"])
        #expect(fReturn is Token)
    }

    @Test func asyncAndThrowingMethods() async throws {
        let pipe1 = ActionPipe<LoadingKeys>()
        let pipe2 = ActionPipe<LoadingKeys>()
        pipe1.addPipe(pipe2)
        pipe1.registerAction(\.load).asyncAction { _, id in
            await Task.yield()
            return "item \(id)"
        }
        pipe2.registerAction(\.load).asyncAction { process, id in
            (process.upstreamReturn(as: String.self) ?? "?") + " checked"
        }
        pipe1.registerAction(\.save).throwingAction { _, text in
            guard !text.isEmpty else { throw Failure(reason: "empty") }
            return text.count
        }
        pipe2.registerAction(\.save).throwingAction { process, _ in
            (try process.upstreamReturn(as: Result<Int, any Error>.self)?.get() ?? 0) * 10
        }
        pipe2.registerAction(\.sync).asyncThrowingAction { _, id in
            if id < 0 { throw Failure(reason: "negative \(id)") }
        }
        pipe1.registerAction(\.count).action { _, items, predicate in items.filter(predicate).count }

        let loading: any Loading = pipe2.as(Loading.self)
        #expect(await loading.load(id: 3) == "item 3 checked")
        #expect(try loading.save("four") == 40)
        #expect(throws: Failure(reason: "empty")) { try loading.save("") }
        try await loading.sync(1)
        await #expect(throws: Failure(reason: "negative -1")) { try await loading.sync(-1) }
        #expect(loading.count(of: ["a", "bb", "cc"], where: { $0.count == 2 }) == 2)
        #expect(await ActionPipe<LoadingKeys>().as(Loading.self).load(id: 1) == nil, "no action: nil")
    }

    @Test func anAsyncAndThrowingDelegate() async throws {
        final class Store: Loading {
            func load(id: Int) async -> String? { id > 0 ? "stored \(id)" : nil }
            func save(_ text: String) throws -> Int {
                if text == "bad" { throw Failure(reason: "bad") }
                return 1
            }
            func sync(_: Int) async throws {}
            func count(of items: [String], where predicate: @escaping @Sendable (String) -> Bool) -> Int { -1 }
        }
        let store = Store()
        let pipe = ActionPipe<LoadingKeys>()
        pipe.registerProtocol(delegate: store)
        let loading = pipe.as(Loading.self)
        #expect(await loading.load(id: 2) == "stored 2")
        #expect(await loading.load(id: 0) == nil)
        #expect(try loading.save("ok") == 1)
        #expect(throws: Failure(reason: "bad")) { try loading.save("bad") }
        #expect(loading.count(of: [], where: { _ in true }) == -1)
    }

    @Test func respondsToAsksTheChainThroughGeneratedKeys() {
        let pipe1 = ActionPipe<ActionPipeProtocolKeys>()
        let pipe2 = ActionPipe<ActionPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc3).action { _ in }
        #expect(!pipe1.responds(to: \.someFunc3))
        pipe1.addPipe(pipe2)
        #expect(pipe1.responds(to: \.someFunc3))
        #expect(!pipe1.responds(to: \.someFunc))
    }

    @Test func aNonOptionalResultWithNoActionIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ActionPipe<ActionPipeProtocolKeys>().as(ActionPipeProtocol.self).someFunc(number: 1, object: nil)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionPipeProtocol.someFunc(number:object:): no action ran in the chain, so there "
                                 + "is no Double to return; register one (responds(to:) tells), or declare the "
                                 + "result optional"))
    }

    /// Issue 30: a `throws` method with a result to return throws a typed error naming it when no action ran,
    /// instead of stopping; optional and `Void` results still return.
    @Test func aThrowingMethodWithNoActionThrows() async throws {
        let fetching = ActionPipe<FetchingKeys>().as(Fetching.self)
        await #expect(throws: ActionPipeError.noActionRan(action: "Fetching.fetch(id:)")) {
            try await fetching.fetch(id: 1)
        }
        #expect(throws: ActionPipeError.noActionRan(action: "Fetching.save(_:)")) { try fetching.save("x") }
        #expect(try fetching.title(of: 1) == nil)
        try fetching.touch(1)
        #expect("\(ActionPipeError.noActionRan(action: "Fetching.save(_:)"))"
                == "Fetching.save(_:): no action ran in the chain, so there is no result to return")
    }

    /// Filtered out or answered by a freed delegate counts as no action ran; a registered action still answers and
    /// its error is the one thrown.
    @Test func aThrowingMethodThrowsWhenEveryActionIsSkipped() async throws {
        final class Store: Fetching {
            func fetch(id: Int) async throws -> String { "stored \(id)" }
            func save(_ text: String) throws -> Int { text.count }
            func title(of id: Int) throws -> String? { "title \(id)" }
            func touch(_ id: Int) throws { throw Failure(reason: "touched \(id)") }
        }
        let pipe = ActionPipe<FetchingKeys>()
        var store: Store? = Store()
        pipe.registerProtocol(delegate: store!)
        let fetching = pipe.as(Fetching.self)
        #expect(try await fetching.fetch(id: 2) == "stored 2")
        #expect(try fetching.title(of: 2) == "title 2")
        #expect(throws: Failure(reason: "touched 3")) { try fetching.touch(3) }
        store = nil
        await #expect(throws: ActionPipeError.noActionRan(action: "Fetching.fetch(id:)")) {
            try await fetching.fetch(id: 2)
        }
        #expect(try fetching.title(of: 2) == nil)
        try fetching.touch(3)

        let stated = ActionPipe<FetchingKeys>()
        stated.registerAction(\.save).state(1).throwingAction { _, text in text.count }
        #expect(try stated.doWithState(1).as(Fetching.self).save("four") == 4)
        #expect(throws: ActionPipeError.noActionRan(action: "Fetching.save(_:)")) {
            try stated.doWithState(2).as(Fetching.self).save("four")
        }
    }

    @Test func theKeysAreNamedAfterTheMethods() {
        let keys = ActionPipeProtocolKeys()
        #expect(keys.someFunc.name == "someFunc(number:object:)")
        #expect(keys.someFunc3.name == "someFunc3()")
        #expect(LoadingKeys().sync.name == "sync(_:)")
        #expect(keys.someFunc.argumentCount == 2)
    }
}
