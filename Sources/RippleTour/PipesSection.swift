import Foundation
import RipplePipes
#if !RIPPLE_WITHOUT_ACTION_PROTOCOL
import RippleActionProtocol
#endif

/// `@protocol actionPipeProtocol` of the seed's sections 1–3, one typed key per method.
private struct ShareActions: Sendable {
    var someFunc = ActionKey<Int, Any?, Double>("someFuncWithNumber:object:")
    var someFunc2 = ActionKey<CGSize, Any?, Void>("someFunc2WithNumber:object:")
    var someFunc3 = ActionKey<Void>("someFunc3")
}

/// `- (id)someFuncWithNumber:(NSInteger)number object:(id)objc;` of sections 4–6.
private struct ObjectActions: Sendable {
    var someFunc = ActionKey<Int, Any?, Any?>("someFuncWithNumber:object:")
}

/// Section 6's object; with the macro it also stands for the whole protocol (`registerProtocol(delegate:)`).
private final class TestObject: Sendable, CustomStringConvertible {
    let log: TourLog

    init(log: TourLog) {
        self.log = log
    }

    var description: String { "<TestObject>" }

    func someFunc(number: Int, object: Any?) -> Any? {
        log.print("\(self) , \(number), \(text(object))")
        return Token()
    }
}

private final class Token: Sendable, CustomStringConvertible {
    var description: String { "<Token>" }
}

private func f(_ value: Double) -> String {
    String(format: "%f", value)
}

private func text(_ value: Any?) -> String {
    switch value {
    case .none: "nil"
    case .some(let date as Date): seedDate(date)
    case .some(let value): String(describing: value)
    }
}

/// NSLog's date format in the seed's output, in UTC so the tour prints the same line everywhere.
private func seedDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE MMM dd HH:mm:ss yyyy"
    return formatter.string(from: date)
}

/// ZZActionPipe's README, section by section.
let pipesSection = TourSection(name: "pipes", summary: "typed actions along a chain of pipes (ZZActionPipe)") { log in
    log.heading("RipplePipes 1–2 — register an action, call it like a method")
    log.code("pipe.registerAction(\\.someFunc).action { process, number, object in … }")
    log.code("pipe.someFunc(999, [1, 2, 3])")
    do {
        let pipe = ActionPipe(ShareActions())
        pipe.registerAction(\.someFunc).action { _, number, object in
            log.print("number _ \(number) , objc _ \(text(object))")
            return 100.0
        }
        let fReturn = pipe.someFunc(999, [1, 2, 3])
        log.print("result _ \(f(fReturn ?? 0))")
    }

    log.heading("RipplePipes 3 — compose pipes; call through any of them")
    log.code("pipe1.addPipe(pipe2).addPipe(pipe3); pipe3.someFunc2(size, \"hello\"); pipe1.someFunc3()")
    do {
        let pipes = (1...3).map { _ in ActionPipe(ShareActions()) }
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.someFunc2).action { _, size, object in
                log.print("pipe\(index + 1) _ called size: \(f(size.height)) \(f(size.width)) , \(text(object))")
            }
        }
        pipes[1].registerAction(\.someFunc3).action { _ in log.print("someFunc3 called.") }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        pipes[2].someFunc2(CGSize(width: 10, height: 20), "hello")
        pipes[0].someFunc3()
    }

    log.heading("RipplePipes 4.1 — returnKind(of:) and returnNotNil()")
    log.code("pipe2.registerAction(\\.someFunc).returnKind(of: Date.self); pipe3….returnNotNil()")
    do {
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, _, object in
            if object == nil {
                log.print("pipe1 _ return nil.")
                return nil
            }
            return object is [Any] ? Date() : NSObject()
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).returnKind(of: Date.self).action { _, _, _ in
            log.print("pipe2 _ up steam return NSDate.")
            return nil
        }
        let pipe3 = ActionPipe(ObjectActions())
        pipe3.registerAction(\.someFunc).returnNotNil().action { _, _, _ in
            log.print("pipe3 _ up steam return not Null.")
            return nil
        }
        pipe1.addPipe(pipe2).addPipe(pipe3)
        log.code("pipe3.someFunc(0, nil)")
        pipe3.someFunc(0, nil)
        log.code("pipe2.someFunc(0, [1, 2])")
        pipe2.someFunc(0, [1, 2])
        log.code("pipe1.someFunc(0, [\"a\": \"aa\"])")
        pipe1.someFunc(0, ["a": "aa"])
    }

    log.heading("RipplePipes 4.2 — param(_:kindOf:) (1-based)")
    log.code("pipe1.registerAction(\\.someFunc).param(2, kindOf: [Any].self).action { … }")
    do {
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).param(2, kindOf: [Any].self).action { _, _, _ in
            log.print("pipe1 _ param objc is Array.")
            return nil
        }
        pipe1.someFunc(0, [1, 2])
    }

    log.heading("RipplePipes 4.3 — state(_:) and doWithState(_:)")
    log.code("pipe1.registerAction(\\.someFunc).state(1); pipe2….state(10); pipe1.doWithState(1).someFunc(0, nil)")
    do {
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).state(1).action { _, _, _ in
            log.print("pipe1 _ state 1.")
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).state(10).action { _, _, _ in
            log.print("pipe1 _ state 10.")
            return nil
        }
        pipe1.addPipe(pipe2)
        log.code("doWithState(1)")
        pipe1.doWithState(1).someFunc(0, nil)
        log.code("doWithState(10)")
        pipe1.doWithState(10).someFunc(0, nil)
        log.code("doWithState(1 | 10)")
        pipe1.doWithState(1 | 10).someFunc(0, nil)
    }

    log.heading("RipplePipes 5.1 — extra values down the chain: process.tuple")
    log.code("process.tuple = PipeTuple(date, text); process.tuple.unpack(Date.self, String.self)")
    do {
        let birthday = Date(timeIntervalSince1970: 1_624_476_088)   // Wed Jun 23 19:21:28 2021 UTC
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, number, _ in
            ActionProcess.current?.tuple = PipeTuple(birthday, "Robot No.\(number) birth day")
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, _ in
            guard let (date, str) = ActionProcess.current?.tuple.unpack(Date.self, String.self) else { return nil }
            log.print("\(str) _ \(seedDate(date))")
            return date
        }
        pipe1.addPipe(pipe2)
        let fReturn = pipe1.someFunc(999, nil)
        log.print("result _ \(text(fReturn))")
    }

    log.heading("RipplePipes 5.2 — change an argument for the actions downstream")
    log.code("process.changeArgument(at: 2, to: Date() as Any?)")
    do {
        let now = Date(timeIntervalSince1970: 1_624_557_034)        // Thu Jun 24 17:50:34 2021 UTC
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { process, _, _ in
            process.changeArgument(at: 2, to: now as Any?)
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, date in
            date as? Date
        }
        pipe1.addPipe(pipe2)
        let fReturn = pipe1.someFunc(999, nil)
        log.print("result _ \(text(fReturn))")
    }

    log.heading("RipplePipes 5.3 — the upstream return value")
    log.code("ActionProcess.current?.upstreamReturnValue")
    do {
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, _, _ in [1, 2, 3] }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).action { _, _, _ in ActionProcess.current?.upstreamReturnValue }
        pipe1.addPipe(pipe2)
        let fReturn = pipe1.someFunc(999, nil)
        log.print("result _ \(text(fReturn))")
    }

    log.heading("RipplePipes 6 — an object's method as the action")
    log.code("pipe1.registerAction(\\.someFunc).delegate(object) { object, number, text in object.someFunc(…) }")
    do {
        let pipe1 = ActionPipe(ObjectActions())
        let delegate = TestObject(log: log)
        pipe1.registerAction(\.someFunc).delegate(delegate) { object, number, text in
            object.someFunc(number: number, object: text)
        }
        let fReturn = pipe1.someFunc(999, "in instance object")
        log.print("result _ \(text(fReturn))")
    }

    #if !RIPPLE_WITHOUT_ACTION_PROTOCOL
    showPipesAsTheProtocol(log)
    showADelegateSplitOverThreePipes(log)
    #endif
}

// The product is left out of CI's release and -Osize passes (RIPPLE_WITHOUT_ACTION_PROTOCOL, see Package.swift);
// every other build has it.
#if !RIPPLE_WITHOUT_ACTION_PROTOCOL
/// The same protocols as Swift protocols: `@ActionProtocol` gives each a keys struct and a proxy, so a pipe can be
/// passed where the protocol is expected (the seed's `(id<actionPipeProtocol>)pipe`).
@ActionProtocol
private protocol ActionPipeProtocol {
    func someFunc(number: Int, object: Any?) -> Double
    func someFunc2(size: CGSize, object: Any?)
    func someFunc3()
}

@ActionProtocol
private protocol ObjectPipeProtocol {
    @discardableResult
    func someFunc(number: Int, object: Any?) -> Any?
}

/// The seed's AOP use: a view's delegate protocol, answered by three pipes — analytics before, the real controller
/// (an object registered for the whole protocol), a permission check after — none of which knows the others.
@ActionProtocol
private protocol DocumentViewDelegate {
    func documentDidOpen(id: Int)
    func canDelete(id: Int) -> Bool?
}

private final class DocumentController: DocumentViewDelegate, Sendable {
    let log: TourLog

    init(log: TourLog) {
        self.log = log
    }

    func documentDidOpen(id: Int) {
        log.print("controller _ showing document \(id)")
    }

    func canDelete(id: Int) -> Bool? {
        true
    }
}

extension TestObject: ObjectPipeProtocol {}

/// Sections 1–3, 4.3 and 6 again, every call made on the pipe as the protocol.
private func showPipesAsTheProtocol(_ log: TourLog) {
    log.heading("RipplePipes — a pipe as the protocol: @ActionProtocol")
    log.code("let actions: any ActionPipeProtocol = pipe.as(ActionPipeProtocol.self)")
    do {
        let pipe = ActionPipe<ActionPipeProtocolKeys>()
        pipe.registerAction(\.someFunc).action { _, number, object in
            log.print("number _ \(number) , objc _ \(text(object))")
            return 100.0
        }
        let actions: any ActionPipeProtocol = pipe.as(ActionPipeProtocol.self)
        let fReturn = actions.someFunc(number: 999, object: [1, 2, 3])
        log.print("result _ \(f(fReturn))")
    }

    log.code("pipes[2].as(ActionPipeProtocol.self).someFunc2(size: size, object: \"hello\")")
    do {
        let pipes = (1...3).map { _ in ActionPipe<ActionPipeProtocolKeys>() }
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.someFunc2).action { _, size, object in
                log.print("pipe\(index + 1) _ called size: \(f(size.height)) \(f(size.width)) , \(text(object))")
            }
        }
        pipes[1].registerAction(\.someFunc3).action { _ in log.print("someFunc3 called.") }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        pipes[2].as(ActionPipeProtocol.self).someFunc2(size: CGSize(width: 10, height: 20), object: "hello")
        pipes[0].as(ActionPipeProtocol.self).someFunc3()
        log.print("responds to someFunc3 through pipe3: \(pipes[2].responds(to: \.someFunc3))")
    }

    log.code("pipe1.doWithState(1 | 10).as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)")
    do {
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe1.registerAction(\.someFunc).state(1).action { _, _, _ in
            log.print("pipe1 _ state 1.")
            return nil
        }
        let pipe2 = ActionPipe<ObjectPipeProtocolKeys>()
        pipe2.registerAction(\.someFunc).state(10).action { _, _, _ in
            log.print("pipe1 _ state 10.")
            return nil
        }
        pipe1.addPipe(pipe2)
        pipe1.doWithState(1 | 10).as(ObjectPipeProtocol.self).someFunc(number: 0, object: nil)
    }

    log.code("pipe1.registerProtocol(delegate: object)    // held weakly, like the seed's delegates")
    do {
        let pipe1 = ActionPipe<ObjectPipeProtocolKeys>()
        let delegate = TestObject(log: log)
        pipe1.registerProtocol(delegate: delegate)
        let fReturn = pipe1.as(ObjectPipeProtocol.self).someFunc(number: 999, object: "in instance object")
        log.print("result _ \(text(fReturn))")
    }
}

/// The seed's AOP: behaviour added around a class's delegate methods without touching the class.
private func showADelegateSplitOverThreePipes(_ log: TourLog) {
    log.heading("RipplePipes — one delegate split over three pipes (AOP)")
    log.code("analytics.addPipe(controllerPipe).addPipe(permissions); view.delegate = analytics.as(…)")
    let analytics = ActionPipe<DocumentViewDelegateKeys>()
    analytics.registerAction(\.documentDidOpen).action { _, id in log.print("analytics _ open \(id)") }
    let controller = DocumentController(log: log)
    let controllerPipe = ActionPipe<DocumentViewDelegateKeys>()
    controllerPipe.registerProtocol(delegate: controller)
    let permissions = ActionPipe<DocumentViewDelegateKeys>()
    // Runs after the controller said yes, and vetoes locked documents.
    permissions.registerAction(\.canDelete).returnKind(of: Bool.self).action { process, id in
        let locked = id < 10
        if locked { log.print("permissions _ document \(id) is locked") }
        return process.upstreamReturn(as: Bool.self) == true && !locked
    }
    analytics.addPipe(controllerPipe).addPipe(permissions)

    // What a view holds: the protocol, not the pipes.
    let delegate: any DocumentViewDelegate = analytics.as(DocumentViewDelegate.self)
    delegate.documentDidOpen(id: 42)
    log.print("canDelete(42) _ \(delegate.canDelete(id: 42).map { "\($0)" } ?? "nil")")
    log.print("canDelete(7) _ \(delegate.canDelete(id: 7).map { "\($0)" } ?? "nil")")
    withExtendedLifetime(controller) {}
}
#endif
