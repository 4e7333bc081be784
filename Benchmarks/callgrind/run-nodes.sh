#!/usr/bin/env bash
# The callgrind figures of BENCHMARKS.md's "Engine 3 baseline (engine 2 figures)" table, in one session:
# builds RippleNodes (release) in CHECKOUT (default: the repository this script sits in), compiles this repository's
# harness (NodesCallgrind.swift + the kairo shapes, with OpenCombine's objects for its two rows) against it, runs each
# workload at N and 2N units under `valgrind --tool=callgrind` and prints one markdown row per workload:
# instructions per unit = (Ir(2N) − Ir(N)) ÷ N, so setup cancels out. MapNodeBytes runs natively (resident bytes
# per live `map` node). A kairo workload whose effect runs differ from js-reactivity-benchmark's stops with a message.
#
# Usage: Benchmarks/callgrind/run-nodes.sh [CHECKOUT] [WORKLOAD …]
#   Benchmarks/callgrind/run-nodes.sh                          # every row, against this repository
#   Benchmarks/callgrind/run-nodes.sh /work/wt-engine3         # every row, RippleNodes of another checkout
#   Benchmarks/callgrind/run-nodes.sh . KairoMux KairoTriangle # some rows
# Environment: SCRATCH (build folder inside CHECKOUT, default .build; must be .build, .build-NAME or .build_NAME),
# OUT (where binaries go, default a temporary folder).
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
checkout="$(cd "${1:-$here}" && pwd)"
shift || true
scratch="${SCRATCH:-.build}"
out="${OUT:-$(mktemp -d)}"
export RIPPLE_WITHOUT_ACTION_PROTOCOL=1

# workload, N, target (the issue 28 item 4 figure, or the reference it is compared with)
rows=(
    "SubjectPumping|4000|≤ engine 2"
    "MapFilterPumping|2000|≥ 3× OpenCombine (wall clock)"
    "OpenCombine/MapFilterPumping|2000|reference"
    "MapFilterCreating|400|≥ 1.5× OpenCombine"
    "OpenCombine/MapFilterCreating|400|reference"
    "FanOut100|400|≤ engine 2"
    "FanOut1000|100|≤ engine 2"
    "CombineLatestPumping|1000|≤ engine 2"
    "FlatMapLatestPumping|1000|≤ engine 2"
    "DiamondGrid10x10|100|≤ engine 2"
    "DeepChain10|2000|—"
    "DeepChain100|400|—"
    "DeepChain1000|100|≤ 8 ns a hop (wall clock)"
    "KairoDeep|1000|≤ 22,095"
    "KairoBroad|400|≤ 71,995"
    "KairoDiamond|1000|≤ 3,994"
    "KairoTriangle|1000|≤ 7,743"
    "KairoMux|200|≤ 180,338"
    "KairoRepeated|1000|≤ 2,400"
    "KairoUnstable|1000|≤ 5,839"
    "KairoAvoidable|1000|≤ 1,500"
    "MapNodeBytes|0|≤ 250 bytes"
)

echo "== building RippleNodes (release) in $checkout/$scratch" >&2
(cd "$checkout" && swift build -c release --scratch-path "$scratch" --target RippleNodes >&2)
echo "== building OpenCombine (release) in $here/Benchmarks" >&2
swift build -c release --package-path "$here/Benchmarks" --target OpenCombine >&2

release="$checkout/$scratch/release"
bench="$here/Benchmarks/.build/release"
# Every library object of the checkout's build goes into one archive, so the link takes only what RippleNodes needs
# whatever its dependencies are (engine 3 may add or drop some); test and executable targets stay out.
rm -f "$out/libnodes.a"
for dir in "$release"/*.build; do
    case "$(basename "$dir")" in
        *Tests.build | *Tour*.build | *Testing*.build | *Macros.build | *Discovered*.build | OpenCombine*.build) continue ;;
    esac
    # The objects of the target's current sources only (its output file map): a scratch folder keeps the objects
    # of files since deleted, which would clash with their replacements at link time.
    mapfile -t objects < <(python3 -c 'import json, os, sys
for source, outputs in json.load(open(sys.argv[1])).items():
    if source and os.path.exists(outputs.get("object", "")): print(outputs["object"])' "$dir/output-file-map.json" 2>/dev/null)
    [ ${#objects[@]} -gt 0 ] && ar rcs "$out/libnodes.a" "${objects[@]}"
done

echo "== compiling the harness" >&2
swiftc -O -parse-as-library -DOPENCOMBINE \
    -I "$release/Modules" -I "$bench/Modules" \
    -Xcc -fmodule-map-file="$bench/COpenCombineHelpers.build/module.modulemap" \
    -Xcc -I -Xcc "$here/Benchmarks/.build/checkouts/OpenCombine/Sources/COpenCombineHelpers/include" \
    "$here/Benchmarks/callgrind/NodesCallgrind.swift" "$here/Benchmarks/Benchmarks/RippleBenchmarks/KairoShapes.swift" \
    "$bench"/OpenCombine.build/*.o "$bench"/COpenCombineHelpers.build/*.o "$out/libnodes.a" -lstdc++ \
    -o "$out/nodes-cg"
# Valgrind cannot read the debug information of a binary with OpenCombine's objects in it.
strip --strip-debug "$out/nodes-cg"

instructions() { # workload units → Ir of the whole run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/nodes-cg" "$1" "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "== measuring RippleNodes of $checkout at $(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo '?')" >&2
wanted=("$@")
echo "| workload | target | figure |"
echo "|---|---|---:|"
for row in "${rows[@]}"; do
    IFS='|' read -r name n target <<<"$row"
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
    if [ "$name" = MapNodeBytes ]; then
        figure="$("$out/nodes-cg" MapNodeBytes | awk '{print $2}') bytes"
    else
        once=$(instructions "$name" "$n")
        twice=$(instructions "$name" $((2 * n)))
        if [ -z "$once" ] || [ -z "$twice" ]; then
            echo "$name failed:" >&2
            "$out/nodes-cg" "$name" "$n" >&2 || true
            exit 1
        fi
        figure=$(python3 -c "print(f'{round(($twice - $once) / $n):,}')")
    fi
    echo "| $name | $target | $figure |"
done
