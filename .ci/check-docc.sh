#!/usr/bin/env bash
# Builds the DocC archives of Ripple's own library modules (not DequeModule's, not the tour's) and fails on any
# documentation warning: docc's --warnings-as-errors (passed through swift-docc-plugin 1.5.0 to `docc convert`)
# turns them into errors, and the log is grepped as well in case a warning is ever printed without failing.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Ripple RippleCore RippleNodes RippleSignals RipplePipes RipplePipeline RippleLifecycle RippleTesting)
log=.build/docc.log
mkdir -p .build
status=0
swift package --disable-sandbox generate-documentation "${modules[@]/#/--target=}" --warnings-as-errors \
    > "$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || grep -q "warning:" "$log"; then
    grep -A12 -E "(warning|error):" "$log" || tail -n 40 "$log"
    echo "check-docc: DocC reported warnings or failed (exit $status); full log in $log" >&2
    exit 1
fi
echo "check-docc: ${#modules[@]} catalogs built with no warnings"
