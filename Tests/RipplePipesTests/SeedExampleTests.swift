import Foundation
import RipplePipes
import RippleTesting
import Testing

/// Every example of the seed document (ZZActionPipe README), with its documented log lines and results.
@Suite struct SeedExampleTests {
    // 1 & 2: register a selector, then call it directly.
    @Test func registerAndCallDirectly() {
        let log = Recorder<String>()
        let pipe = ActionPipe(ShareActions())
        pipe.registerAction(\.someFunc).action { _, number, object in
            log("number _ \(number) , objc _ \(describe(object))")
            return 100.0
        }
        let result = pipe.someFunc(999, [1, 2, 3])
        log("result _ \(f(result ?? 0))")
        #expect(log.values == ["number _ 999 , objc _ [1, 2, 3]", "result _ 100.000000"])
        #expect(result == 100.0)
        #expect(pipe.call(\.someFunc, 1, nil) == 100.0)
    }

    // 3: three pipes composed, called through the tail and through the head.
    @Test func composedPipesRunInCompositionOrder() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(ShareActions())
        let pipe2 = ActionPipe(ShareActions())
        let pipe3 = ActionPipe(ShareActions())
        for (name, pipe) in [("pipe1", pipe1), ("pipe2", pipe2), ("pipe3", pipe3)] {
            pipe.registerAction(\.someFunc2).action { _, size, object in
                log("\(name) _ called size: \(f(size.height)) \(f(size.width)) , \(describe(object))")
            }
        }
        pipe2.registerAction(\.someFunc3).action { _ in log("someFunc3 called.") }

        pipe1.addPipe(pipe2).addPipe(pipe3)
        pipe3.someFunc2(CGSize(width: 10, height: 20), "hello")
        pipe1.someFunc3()

        #expect(log.values == [
            "pipe1 _ called size: 20.000000 10.000000 , hello",
            "pipe2 _ called size: 20.000000 10.000000 , hello",
            "pipe3 _ called size: 20.000000 10.000000 , hello",
            "someFunc3 called.",
        ])
    }

    /// The section 4.1 chain: pipe1 returns nil / a Date / an object; pipe2 wants a Date, pipe3 a non-nil value.
    private func returnKindChain(_ log: Recorder<String>) -> [ActionPipe<ObjectActions>] {
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, _, object in
            if object == nil {
                log("pipe1 _ return nil.")
                return nil
            } else if object is [Any] {
                return Date()
            } else {
                return NSObject()
            }
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).returnKind(of: Date.self).action { _, _, _ in
            log("pipe2 _ up steam return NSDate.")
            return nil
        }
        let pipe3 = ActionPipe(ObjectActions())
        pipe3.registerAction(\.someFunc).returnNotNil().action { _, _, _ in
            log("pipe3 _ up steam return not Null.")
            return nil
        }
        pipe1.addPipe(pipe2).addPipe(pipe3)
        return [pipe1, pipe2, pipe3]
    }

    // 4.1: returnKindOf & returnNotNull, in the seed's three calls.
    @Test func returnKindAndReturnNotNil() {
        let log = Recorder<String>()
        let pipes = returnKindChain(log)

        pipes[2].someFunc(0, nil)
        #expect(log.values == ["pipe1 _ return nil."])

        log.reset()
        pipes[1].someFunc(0, [1, 2])
        #expect(log.values == ["pipe2 _ up steam return NSDate."])

        log.reset()
        pipes[0].someFunc(0, ["a": "aa"])
        #expect(log.values == ["pipe3 _ up steam return not Null."])
    }

    // 4.2: paramKindOf (1-based index).
    @Test func paramKind() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).param(2, kindOf: [Any].self).action { _, _, _ in
            log("pipe1 _ param objc is Array.")
            return nil
        }
        pipe1.someFunc(0, [1, 2])
        #expect(log.values == ["pipe1 _ param objc is Array."])
        pipe1.someFunc(0, "not an array")
        pipe1.someFunc(0, nil)
        #expect(log.values == ["pipe1 _ param objc is Array."])
    }

    // 4.3: state 1, 10 and 1 | 10.
    @Test func states() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).state(1).action { process, _, _ in
            log("pipe1 _ state 1.")
            #expect(process.state == nil || process.state!.contains(1))
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).state(10).action { _, _, _ in
            log("pipe1 _ state 10.")
            return nil
        }
        pipe1.addPipe(pipe2)

        pipe1.doWithState(1).someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 1."])
        log.reset()
        pipe1.doWithState(10).someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 10."])
        log.reset()
        pipe1.doWithState(ActionState(rawValue: 1 | 10)).someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 1.", "pipe1 _ state 10."])
        log.reset()
        pipe1.doWithState([1, 10]).someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 1.", "pipe1 _ state 10."])

        // "A call without doWithState runs every state; an action without a state ignores doWithState."
        log.reset()
        pipe1.someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 1.", "pipe1 _ state 10."])
        let pipe3 = ActionPipe(ObjectActions())
        pipe3.registerAction(\.someFunc).action { _, _, _ in
            log("no state")
            return nil
        }
        pipe2.addPipe(pipe3)
        log.reset()
        pipe1.doWithState(10).someFunc(0, nil)
        #expect(log.values == ["pipe1 _ state 10.", "no state"])
    }

    // 5.1: extra values passed down through the process's tuple.
    @Test func tuplePassDown() {
        let log = Recorder<String>()
        let birthday = Date(timeIntervalSince1970: 1_624_447_288)
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, number, _ in
            let process = ActionProcess.current!
            process.tuple = PipeTuple(birthday, "Robot No.\(number) birth day")
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, _ in
            let process = ActionProcess.current!
            guard let (date, text) = process.tuple.unpack(Date.self, String.self) else { return nil }
            log("\(text) _ \(date)")
            return date
        }
        pipe1.addPipe(pipe2)
        let result = pipe1.someFunc(999, nil)
        log("result _ \(describe(result ?? nil))")
        #expect(log.values == ["Robot No.999 birth day _ \(birthday)", "result _ \(birthday)"])
        #expect((result ?? nil) as? Date == birthday)
    }

    // 5.2: changing an argument for the actions downstream.
    @Test func changeArgument() {
        let log = Recorder<String>()
        let now = Date(timeIntervalSince1970: 1_624_528_234)
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { process, _, _ in
            process.changeArgument(at: 2, to: now as Any?)     // the nil object becomes a Date
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, date in
            if let date = date as? Date {
                return date
            }
            return nil
        }
        pipe1.addPipe(pipe2)
        let result = pipe1.someFunc(999, nil)
        log("result _ \(describe(result ?? nil))")
        #expect(log.values == ["result _ \(now)"])
        #expect((result ?? nil) as? Date == now)
    }

    // 5.3: reading the upstream return value.
    @Test func upstreamReturn() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, _, _ in [1, 2, 3] }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, _ in
            ActionProcess.current?.upstreamReturnValue
        }
        pipe1.addPipe(pipe2)
        let result = pipe1.someFunc(999, nil)
        log("result _ \(describe(result ?? nil))")
        #expect(log.values == ["result _ [1, 2, 3]"])
        #expect((result ?? nil) as? [Int] == [1, 2, 3])
    }

    // 6: an object's method registered on a pipe.
    @Test func delegateObject() {
        let log = Recorder<String>()
        let delegate = TestObject(log: log)
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).delegate(delegate) { object, number, text in
            object.someFunc(number: number, object: text)
        }
        let result = pipe1.someFunc(999, "in instance object")
        log("result _ \(describe(result ?? nil))")
        #expect(log.values == ["TestObject , 999, in instance object", "result _ Token"])
        #expect((result ?? nil) is Token)
    }
}

final class Token: Sendable, CustomStringConvertible {
    var description: String { "Token" }
}

final class TestObject: Sendable, CustomStringConvertible {
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
    }

    var description: String { "TestObject" }

    func someFunc(number: Int, object: Any?) -> Any? {
        log("\(self) , \(number), \(describe(object))")
        return Token()
    }
}
