#!/usr/bin/env bash
# Proves what a package depending on Ripple pays for: built outside the repository, a package that depends only on
# the `Ripple` product must not fetch OpenCombine and must not build swift-syntax; one that asks for RippleCombine
# with the `OpenCombine` trait gets it and can use `signal.publisher`.
#
# Why it needs checking: SwiftPM 6.3 resolves (fetches and checks out) every package that a non-test target of a
# dependency uses, whichever products the dependent asks for; only packages used by test targets alone, and uses
# guarded by a trait the dependent did not enable, are left out. So OpenCombine sits behind the `OpenCombine` trait
# (Package.swift), and swift-syntax, which `@ActionProtocol`'s macro target uses, is checked out but never built
# unless the dependent asks for RippleActionProtocol. Run from anywhere; takes a debug build of Ripple (minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"
work="$(mktemp -d)"
# Kept on failure, for a look at what was built (set CHECK_DEPENDENTS_KEEP=1 to keep it anyway).
trap 'status=$?; if [ "$status" -eq 0 ] && [ -z "${CHECK_DEPENDENTS_KEEP:-}" ]; then rm -rf "$work"; else echo "work folder: $work" >&2; fi' EXIT
# The dependent's own configuration: none of Ripple's build switches.
unset RIPPLE_WITHOUT_ACTION_PROTOCOL RIPPLE_SKIP_MACRO_EXPANSION_TESTS

fail() {
    echo "check-dependents: $*" >&2
    exit 1
}

# 1. Only `Ripple`.
mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Ripple", package: "$identity")])]
)
EOF
cat > "$work/app/Sources/App/main.swift" <<'EOF'
import Ripple

let node = MutableNode(20)
let subscription = node.signal.map { $0 + 1 }.subscribe(value: { print("value", $0) })
node.value = 41
EOF
(cd "$work/app" && swift build > "$work/app.log" 2>&1) || { tail -n 40 "$work/app.log"; fail "the Ripple-only package does not build"; }
checkouts="$(ls "$work/app/.build/checkouts")"
echo "Ripple only — checked out: $(echo $checkouts)"
if echo "$checkouts" | grep -qi opencombine; then
    fail "a package depending only on Ripple fetched OpenCombine"
fi
if grep -qi '"identity" : "opencombine"' "$work/app/Package.resolved" 2>/dev/null; then
    fail "a package depending only on Ripple pinned OpenCombine"
fi
bin="$(cd "$work/app" && swift build --show-bin-path)"
# SwiftPM may lay out a folder per target of the whole graph; what was compiled shows as object files and modules.
built() {
    find "$bin" \( -path "*/$1*.build/*.o" -o -path "*/Modules/$1*.swiftmodule" \) -print -quit | grep -q .
}
if built SwiftSyntax; then
    ls -d "$bin"/SwiftSyntax*.build "$bin"/Modules/SwiftSyntax* 2>/dev/null | head -n 5 >&2
    fail "a package depending only on Ripple built swift-syntax"
fi
if built OpenCombine; then
    fail "a package depending only on Ripple built OpenCombine"
fi
output="$("$bin/App")"
[ "$output" = $'value 21\nvalue 42' ] || fail "the Ripple-only package printed: $output"
echo "Ripple only — no OpenCombine fetched or built, no swift-syntax built; the app runs"

# 2. RippleCombine, with the trait (on Linux; on Apple platforms it needs none).
mkdir -p "$work/combine/Sources/App"
cat > "$work/combine/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "CombineApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root", traits: ["OpenCombine"])],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "Ripple", package: "$identity"), .product(name: "RippleCombine", package: "$identity"),
            ]),
    ]
)
EOF
cat > "$work/combine/Sources/App/main.swift" <<'EOF'
import Ripple
import RippleCombine

let cancellable = Signal<Int, Never>.empty.prepend(1, 2).publisher.sink { print("value", $0) }
EOF
(cd "$work/combine" && swift build > "$work/combine.log" 2>&1) || { tail -n 40 "$work/combine.log"; fail "the RippleCombine package does not build"; }
combined="$("$(cd "$work/combine" && swift build --show-bin-path)/App")"
[ "$combined" = $'value 1\nvalue 2' ] || fail "the RippleCombine package printed: $combined"
echo "RippleCombine with the OpenCombine trait — builds and runs"
echo "check-dependents: passed"
