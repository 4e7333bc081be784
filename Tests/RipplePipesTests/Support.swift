import Foundation
import RipplePipes

/// `@protocol actionPipeProtocol` of the seed's sections 1–3: one key per method.
struct ShareActions: Sendable {
    var someFunc = ActionKey<Int, Any?, Double>("someFuncWithNumber:object:")
    var someFunc2 = ActionKey<CGSize, Any?, Void>("someFunc2WithNumber:object:")
    var someFunc3 = ActionKey<Void>("someFunc3")
}

/// The seed's sections 4–6 declare `- (id)someFuncWithNumber:(NSInteger)number object:(id)objc;`.
struct ObjectActions: Sendable {
    var someFunc = ActionKey<Int, Any?, Any?>("someFuncWithNumber:object:")
}

/// Small keys for behaviour tests.
struct CounterActions: Sendable {
    var tick = ActionKey<Int, Int>("tick")
    var name = ActionKey<String, String>("name")
    var ping = ActionKey<Void>("ping")
    var pair = ActionKey<Int, String, Int>("pair")
}

/// `"%f"`, as the seed's `NSLog` prints a CGFloat.
func f(_ value: Double) -> String {
    String(format: "%f", value)
}

func describe(_ value: Any?) -> String {
    value.map { String(describing: $0) } ?? "nil"
}
