import SwiftDiagnostics
import SwiftSyntax

// One method of an `@ActionProtocol` protocol, read from its declaration: what its key, its proxy method and its
// delegate registration are made of. Anything a pipe cannot stand for is refused here with a diagnostic naming the
// member, so no generated code ever fails to compile with a message about code the user did not write.

/// A parameter: the label callers write, the name the proxy uses, and the type as the key spells it.
struct ActionParameter {
    /// `nil` for `_`.
    let label: String?
    let type: String
}

struct ActionMethod {
    let declaration: FunctionDeclSyntax
    let name: String
    let parameters: [ActionParameter]
    /// The declared result, `Void` when none.
    let result: String
    let isAsync: Bool
    let isThrowing: Bool

    /// The action's name: the method's Swift name, `someFunc(number:object:)`.
    var actionName: String {
        name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
    }

    /// The key's result: a throwing method's key carries the error in a `Result`.
    var keyResult: String {
        isThrowing ? "Swift.Result<\(result), any Swift.Error>" : result
    }

    /// `ActionKey<Argument…, Result>`.
    var keyType: String {
        "RipplePipes.ActionKey<" + (parameters.map(\.type) + [keyResult]).joined(separator: ", ") + ">"
    }

    /// Reads `function`, or reports why a pipe cannot stand for it.
    static func read(_ function: FunctionDeclSyntax,
                     in protocolName: String) -> Result<ActionMethod, ActionDiagnostic> {
        let name = function.name.text
        let member = "\(protocolName).\(name)"
        if function.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) {
            return .failure(.init(function, "'\(member)' is a static method; a pipe stands for an instance, so "
                                  + "@ActionProtocol supports instance methods only"))
        }
        if function.genericParameterClause != nil || function.genericWhereClause != nil {
            return .failure(.init(function, "'\(member)' is a generic method; an action key has fixed argument "
                                  + "and result types, so @ActionProtocol does not support generic methods"))
        }
        if case .binaryOperator = function.name.tokenKind {
            return .failure(.init(function, "'\(member)' is an operator; @ActionProtocol supports named methods only"))
        }
        let effects = function.signature.effectSpecifiers
        if effects?.throwsClause?.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            return .failure(.init(function, "'\(member)' rethrows; an action cannot rethrow what its caller's "
                                  + "closure throws, so @ActionProtocol supports 'throws' only"))
        }
        if let thrown = effects?.throwsClause?.type, thrown.trimmedDescription != "any Error" {
            return .failure(.init(function, "'\(member)' throws \(thrown.trimmedDescription); @ActionProtocol "
                                  + "supports untyped 'throws' only"))
        }
        var parameters: [ActionParameter] = []
        for parameter in function.signature.parameterClause.parameters {
            let shown = parameter.trimmedDescription
            if parameter.ellipsis != nil {
                return .failure(.init(parameter, "'\(member)' has a variadic parameter (\(shown)); take an array "
                                      + "instead, @ActionProtocol does not support variadic parameters"))
            }
            guard let type = keyArgumentType(parameter.type) else {
                return .failure(.init(parameter, "'\(member)' has a parameter an action cannot carry (\(shown)): "
                                      + "inout, ownership-annotated, 'some' and non-escaping closure parameters "
                                      + "are not supported"))
            }
            let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
            parameters.append(ActionParameter(label: label, type: type))
        }
        let result = function.signature.returnClause?.type.trimmedDescription ?? "Void"
        if result.contains("some ") {
            return .failure(.init(function, "'\(member)' returns an opaque type (\(result)); an action key needs "
                                  + "the concrete type"))
        }
        return .success(ActionMethod(
            declaration: function, name: name, parameters: parameters, result: result,
            isAsync: effects?.asyncSpecifier != nil, isThrowing: effects?.throwsClause != nil))
    }

    /// The type a key stores for a parameter: the parameter's type without `@escaping`; nil when no key can carry
    /// it.
    private static func keyArgumentType(_ type: TypeSyntax) -> String? {
        if let attributed = type.as(AttributedTypeSyntax.self) {
            guard attributed.specifiers.isEmpty else { return nil }
            let kept = attributed.attributes.filter {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription != "escaping"
            }
            let escapes = kept.count < attributed.attributes.count
            if !escapes, isFunction(attributed.baseType) { return nil }
            return (kept.map(\.trimmedDescription) + [attributed.baseType.trimmedDescription]).joined(separator: " ")
        }
        if isFunction(type) || type.is(SomeOrAnyTypeSyntax.self) && type.trimmedDescription.hasPrefix("some ") {
            return nil
        }
        return type.trimmedDescription
    }

    private static func isFunction(_ type: TypeSyntax) -> Bool {
        type.is(FunctionTypeSyntax.self)
    }
}

/// An error `@ActionProtocol` reports at the member it cannot turn into an action.
struct ActionDiagnostic: Error {
    let node: Syntax
    let message: String

    init(_ node: some SyntaxProtocol, _ message: String) {
        self.node = Syntax(node)
        self.message = message
    }

    var diagnostic: Diagnostic {
        Diagnostic(node: node, message: ActionProtocolMessage(message: message))
    }
}

struct ActionProtocolMessage: DiagnosticMessage {
    let message: String
    var diagnosticID: MessageID { MessageID(domain: "RipplePipesMacros", id: "ActionProtocol") }
    var severity: DiagnosticSeverity { .error }
}
