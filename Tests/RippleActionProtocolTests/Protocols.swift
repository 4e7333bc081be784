import Foundation
import RippleActionProtocol

/// `@protocol actionPipeProtocol` of the seed's sections 1–3.
@ActionProtocol
protocol ActionPipeProtocol {
    func someFunc(number: Int, object: Any?) -> Double
    func someFunc2(size: CGSize, object: Any?)
    func someFunc3()
}

/// `- (id)someFuncWithNumber:(NSInteger)number object:(id)objc;` of sections 4–6.
@ActionProtocol
protocol ObjectPipeProtocol {
    @discardableResult
    func someFunc(number: Int, object: Any?) -> Any?
}

/// Effects a Swift protocol can have that the seed's could not.
@ActionProtocol
protocol Loading: Sendable {
    func load(id: Int) async -> String?
    func save(_ text: String) throws -> Int
    func sync(_: Int) async throws
    func count(of items: [String], where predicate: @escaping @Sendable (String) -> Bool) -> Int
}

/// Throwing methods of each result shape, for what a proxy does when no action ran.
@ActionProtocol
protocol Fetching: Sendable {
    func fetch(id: Int) async throws -> String
    func save(_ text: String) throws -> Int
    func title(of id: Int) throws -> String?
    func touch(_ id: Int) throws
}

struct Failure: Error, Equatable {
    let reason: String
}

/// `testObject` of section 6, standing for the whole protocol.
final class TestObject: ObjectPipeProtocol, Sendable, CustomStringConvertible {
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    var description: String { "TestObject" }

    func someFunc(number: Int, object: Any?) -> Any? {
        log("\(self) , \(number), \(object.map { "\($0)" } ?? "nil")")
        return Token()
    }
}

final class Token: Sendable, CustomStringConvertible {
    var description: String { "Token" }
}

/// `"%f"`, as the seed's `NSLog` prints a CGFloat.
func f(_ value: Double) -> String {
    String(format: "%f", value)
}

func describe(_ value: Any?) -> String {
    value.map { String(describing: $0) } ?? "nil"
}
