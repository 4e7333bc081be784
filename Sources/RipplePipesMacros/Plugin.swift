import RipplePipesMacroSupport
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

// The compiler finds a macro by the name of a type of this module, so the plugin declares it here and hands the
// work to RipplePipesMacroSupport, which the expansion tests use directly.

@main
struct RipplePipesMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ActionProtocolMacro.self]
}

/// `@ActionProtocol`: see `ActionProtocolExpansion`.
public struct ActionProtocolMacro: PeerMacro {
    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        try ActionProtocolExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
