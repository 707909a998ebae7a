#!/bin/bash
# Without hxb-relayd a peer off this node's lines is not reachable, and the
# process says why (start hxb-relayd) instead of sending frames that no relay
# forwards; peers on a shared line still work. Once hxb-relayd runs (it
# marks the node), the same pair connects and verifies every message; after
# it stops (mark removed), the peer is unreachable again.
TNAME=${TNAME:-r75}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 1
[ -x "$HXB_BIN/hxb-relayd" ] || { echo "SKIP: hxb-relayd not built (clang, libbpf-dev)"; exit 77; }

# no_relay NAME: n0 <-> n3 must fail at once, with the hint
no_relay() {
    local port=$((20000 + RANDOM % 20000))
    # shellcheck disable=SC2046
    on_user n0 $(hxb_env) "$HXB_BIN/hxb-ucp-test" -p $port -n 10 -t 15 > "$LOG/$1.srv" 2>&1 &
    local srv=$!
    # shellcheck disable=SC2046
    on_user n3 $(hxb_env) timeout 30 "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port -n 10 -t 15 \
        > "$LOG/$1.cli" 2>&1 && fail "$1: n3 reached n0 without any relay running"
    wait $srv || true      # it fails too, or ends at its -t alarm
    grep -q "hxb-relayd does not run on this node" "$LOG/$1.cli" "$LOG/$1.srv" ||
        fail "$1: no message saying hxb-relayd is missing"
    note "$1: $(grep -ho 'hxb: node .*' "$LOG/$1.cli" "$LOG/$1.srv" | head -1)"
}

no_relay before
SRV=n0 CLI=n1 ucp_pair line -n 100 -m 65536 -t 60 -s 31     # same x line: no relay needed
relay_up
SRV=n0 CLI=n3 ucp_pair relayed -n 100 -m 65536 -t 60 -s 32
# n3's daemon stops (its pid is in its mark): its mark goes, n0 is off limits again
mark() { on n3 sh -c 'cat "/run/hxb/relayd/netns-$(stat -L -c %i /proc/self/ns/net)"' 2>/dev/null; }
pid=$(mark | awk '{print $1}')
[ -n "$pid" ] && [ "$(mark | awk '{print $2}')" = n3 ] || fail "no relay mark for n3"
[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = hxb-relayd ] || fail "n3's relay mark names pid $pid, not hxb-relayd"
node_kill n3 TERM hxb-relayd || fail "no hxb-relayd runs on n3"
for _ in $(seq 50); do [ -z "$(mark)" ] && break; sleep 0.1; done
[ -z "$(mark)" ] || fail "hxb-relayd on n3 left its mark behind"
no_relay after
