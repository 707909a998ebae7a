#!/bin/bash
# The engine's modules call downward only (doc/DESIGN.md, "Layers"): each
# file may call functions defined in files of its own layer or below, never
# above. Fails, naming the call, if one does. Run by make check.
set -uo pipefail
dir=${1:-$(dirname "$0")/../../uct_hxb}
# bottom up; files on one line share a layer (they never call each other)
layers=(
    "hxb_core.c"
    "hxb_cc.c"
    "hxb_tx.c"
    "hxb_loss.c"
    "hxb_ops.c"
    "hxb_ack.c"
    "hxb_am.c hxb_rma.c hxb_atomic.c"
    "hxb_rx.c"
    "hxb_peer_life.c"
    "hxb_engine.c"
)
declare -A layer_of def_in
for i in "${!layers[@]}"; do
    for f in ${layers[$i]}; do
        [ -f "$dir/$f" ] || { echo "check_layers: $dir/$f missing" >&2; exit 1; }
        layer_of[$f]=$i
    done
done
# functions each file defines (external linkage: a name at column 0 before '(')
for f in "${!layer_of[@]}"; do
    for fn in $(grep -E '^[a-z].*\bhxb_[a-z0-9_]+\(' "$dir/$f" | grep -v '^static' |
                sed -E 's/^[^(]*\b(hxb_[a-z0-9_]+)\(.*/\1/'); do
        def_in[$fn]=$f
    done
done
bad=0
for f in "${!layer_of[@]}"; do
    # calls in the file, comments stripped
    for fn in $(sed -E 's#/\*.*\*/##g; /^\s*\*/d; /^\s*\/\*/d' "$dir/$f" |
                grep -oE '\bhxb_[a-z0-9_]+\(' | tr -d '(' | sort -u); do
        g=${def_in[$fn]:-}
        [ -n "$g" ] && [ "$g" != "$f" ] || continue
        if [ "${layer_of[$g]}" -ge "${layer_of[$f]}" ]; then
            echo "check_layers: $f calls $fn of $g, which is not below it"
            bad=1
        fi
    done
done
[ $bad = 0 ] && echo "check_layers: ${#layer_of[@]} engine files call downward only"
exit $bad
