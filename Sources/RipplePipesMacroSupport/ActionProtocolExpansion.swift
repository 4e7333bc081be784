import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ActionProtocol` on `protocol P`: generates, beside it, `PKeys` (one `ActionKey` per method, conforming to
/// `ActionProtocolKeys`) and `PProxy` (conforming to `P`, every method a call through a pipe of `PKeys`).
///
/// Invariants: every member of the protocol is either turned into a key, a proxy method and a delegate
/// registration, or refused with a diagnostic naming it (then nothing is generated); generated code names Ripple's
/// types by module (`RipplePipes.`) and the key paths by their root, so user declarations cannot capture them.
public struct ActionProtocolExpansion: PeerMacro {
    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        guard let declaration = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(ActionDiagnostic(node, "@ActionProtocol applies to a protocol").diagnostic)
            return []
        }
        let name = declaration.name.text
        var methods: [ActionMethod] = []
        var problems: [ActionDiagnostic] = []
        if let primary = declaration.primaryAssociatedTypeClause {
            problems.append(.init(primary, "'\(name)' has primary associated types; @ActionProtocol supports "
                                  + "protocols without associated types only"))
        }
        for member in declaration.memberBlock.members {
            switch read(member.decl, in: name) {
            case .success(let method?):
                if methods.contains(where: { $0.name == method.name }) {
                    problems.append(.init(member.decl, "'\(name).\(method.name)' is overloaded; each method of an "
                                          + "@ActionProtocol protocol needs its own name, which names its key"))
                } else {
                    methods.append(method)
                }
            case .success(nil):
                break
            case .failure(let problem):
                problems.append(problem)
            }
        }
        guard problems.isEmpty else {
            for problem in problems {
                context.diagnose(problem.diagnostic)
            }
            return []
        }
        let access = accessModifier(of: declaration)
        return [keys(name, methods, access), proxy(name, methods, access)]
    }

    /// A method, nothing to generate (nil), or why the member cannot be an action.
    private static func read(_ member: DeclSyntax, in name: String) -> Result<ActionMethod?, ActionDiagnostic> {
        if let function = member.as(FunctionDeclSyntax.self) {
            return ActionMethod.read(function, in: name).map { $0 }
        }
        let kind: String
        let what: String
        if let variable = member.as(VariableDeclSyntax.self) {
            let names = variable.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ", ")
            kind = "'\(name).\(names)' is a property"
            what = "make it a method (func \(names)() -> …)"
        } else if member.is(SubscriptDeclSyntax.self) {
            kind = "'\(name)' has a subscript"
            what = "make it a method"
        } else if member.is(InitializerDeclSyntax.self) {
            kind = "'\(name)' has an initializer"
            what = "a pipe is not constructed through the protocol"
        } else if let associated = member.as(AssociatedTypeDeclSyntax.self) {
            kind = "'\(name).\(associated.name.text)' is an associated type"
            what = "an action key needs concrete types"
        } else {
            kind = "'\(name)' has a member @ActionProtocol cannot read (\(member.trimmedDescription))"
            what = "declare only methods"
        }
        return .failure(.init(member, "\(kind); @ActionProtocol turns methods into actions only: \(what)"))
    }

    /// The protocol's access for the generated types; a private protocol's peers are fileprivate (same scope).
    private static func accessModifier(of declaration: ProtocolDeclSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            case .keyword(.fileprivate), .keyword(.private): return "fileprivate "
            default: continue
            }
        }
        return ""
    }

    private static func keys(_ name: String, _ methods: [ActionMethod], _ access: String) -> DeclSyntax {
        let keys = methods.map {
            "    /// `\($0.actionName)`\n    \(access)var \($0.name) = \($0.keyType)(\"\($0.actionName)\")"
        }
        let registrations = methods.map { registration(of: $0, keysName: "\(name)Keys") }
        return """
            /// The action keys of `\(raw: name)`, one per method (generated by `@ActionProtocol`): a pipe of them
            /// registers, calls and answers every method, and `pipe.as(\(raw: name).self)` is the protocol.
            \(raw: access)struct \(raw: name)Keys: RipplePipes.ActionProtocolKeys {
                \(raw: access)typealias Interface = any \(raw: name)
                \(raw: access)typealias Delegate = any \(raw: name) & AnyObject & Sendable
            \(raw: keys.joined(separator: "\n"))

                \(raw: access)init() {}

                \(raw: access)static func proxy(_ calls: RipplePipes.PreparedActionPipe<Self>) -> any \(raw: name) {
                    \(raw: name)Proxy(actionCalls: calls)
                }

                \(raw: access)static func register(
                    _ delegate: any \(raw: name) & AnyObject & Sendable, on pipe: RipplePipes.ActionPipe<Self>
                ) {
            \(raw: registrations.joined(separator: "\n"))
                }
            }
            """
    }

    /// Registers the delegate's method for one key, held weakly: a freed delegate's action is skipped. Lines are
    /// indented for the body of `register(_:on:)`.
    private static func registration(of method: ActionMethod, keysName: String) -> String {
        let arguments = method.parameters.indices.map { "argument\($0)" }
        let process = method.isThrowing ? "process" : "_"
        let call = "delegate.\(method.name)("
            + zip(method.parameters, arguments).map { ($0.label.map { $0 + ": " } ?? "") + $1 }
                .joined(separator: ", ")
            + ")"
        let body: [String]
        switch (method.isAsync, method.isThrowing) {
        case (false, false):
            body = ["guard let delegate else { return nil }", "return \(call)"]
        case (true, false):
            body = ["guard let delegate else { return nil }", "return await \(call)"]
        case (false, true):
            body = ["guard let delegate, !process.upstreamFailed else { return nil }",
                    "return Swift.Result { try \(call) }"]
        case (true, true):
            body = ["guard let delegate, !process.upstreamFailed else { return nil }",
                    "do {", "    return .success(try await \(call))", "} catch {", "    return .failure(error)", "}"]
        }
        let finish = method.isAsync ? "skippableAsyncAction" : "skippableAction"
        let opening = "pipe.registerAction(\\\(keysName).\(method.name)).\(finish) { [weak delegate] "
            + ([process] + arguments).joined(separator: ", ") + " in"
        return (["        " + opening] + body.map { "            " + $0 } + ["        }"]).joined(separator: "\n")
    }

    private static func proxy(_ name: String, _ methods: [ActionMethod], _ access: String) -> DeclSyntax {
        let members = methods.map { proxyMethod($0, protocolName: name, access: access) }
        return """
            /// `\(raw: name)` through a pipe of `\(raw: name)Keys` (generated by `@ActionProtocol`): each method
            /// runs its actions along the chain. Get one with `pipe.as(\(raw: name).self)`.
            \(raw: access)struct \(raw: name)Proxy: \(raw: name), Sendable {
                \(raw: access)let actionCalls: RipplePipes.PreparedActionPipe<\(raw: name)Keys>

                \(raw: access)init(actionCalls: RipplePipes.PreparedActionPipe<\(raw: name)Keys>) {
                    self.actionCalls = actionCalls
                }
            \(raw: members.joined(separator: "\n"))
            }
            """
    }

    /// The protocol's method, implemented by a call through the pipe.
    private static func proxyMethod(_ method: ActionMethod, protocolName: String, access: String) -> String {
        // Every parameter gets an inner name the body can use (a protocol may leave it out: `func f(_: Int)`).
        var clause = method.declaration.signature.parameterClause
        var names: [String] = []
        clause.parameters = FunctionParameterListSyntax(clause.parameters.enumerated().map { index, parameter in
            var parameter = parameter
            if let inner = parameter.secondName, inner.tokenKind != .wildcard {
                names.append(inner.text)
            } else if parameter.secondName == nil, parameter.firstName.tokenKind != .wildcard {
                names.append(parameter.firstName.text)
            } else {
                let inner = "argument\(index)"
                names.append(inner)
                parameter.secondName = .identifier(inner)
                parameter.firstName = parameter.firstName.with(\.trailingTrivia, .space)
            }
            return parameter
        })
        let signature = method.declaration.signature.with(\.parameterClause, clause).trimmedDescription
        let key = "\\\(protocolName)Keys.\(method.name)"
        let arguments = ([key] + names).joined(separator: ", ")
        let call = method.isAsync ? "await actionCalls.rawCallAsync(\(arguments))" : "actionCalls.rawCall(\(arguments))"
        let outcome = method.isThrowing ? "try \(call)?.get()" : call
        return """

                \(access)func \(method.name)\(signature) {
                    RipplePipes.ActionProxyResult.unwrap(
                        \(outcome), "\(protocolName).\(method.actionName)")
                }
            """
    }
}
