#!/bin/bash
# Relay routing on the paper's evaluation shape, a 2x2x2 grid with 2 rails
# per dimension: UCP traffic between nodes 2 and 3 dimensions apart crosses
# one and two relays (hxb-relayd's in-kernel forwarding), every message is
# verified, and the traffic is spread over every dimension order: each
# order's first relay forwarded frames. Every daemon runs SCHED_RR (its
# HELLOs must leave on time when ranks keep every core busy). A bad
# option value is refused, naming the option, before anything starts.
TNAME=${TNAME:-r70}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
for bad in "--interval 100x" "--interval 0" "--dead 0" "--dead -1" "--rt-prio 100"; do
    # shellcheck disable=SC2086
    rc=0; "$HXB_BIN/hxb-relayd" --topo /dev/null $bad > "$LOG/badopt" 2>&1 || rc=$?
    [ "$rc" = 2 ] || fail "hxb-relayd $bad: exit $rc, not 2"
    grep -q -- "${bad%% *}: a whole number" "$LOG/badopt" || fail "hxb-relayd $bad: no message naming the option"
done
tb_up --grid 2x2x2 --rails 2 --rate 1gbit
relay_up
n=0
for p in $(pgrep -f -- "--stats $LOG/relay-"); do
    c=$(ps -o cls= -p "$p" | tr -d ' ')
    [ "$c" = RR ] || fail "hxb-relayd (pid $p) runs scheduling class '$c', not RR"
    n=$((n + 1))
done
[ "$n" = 8 ] || fail "found $n hxb-relayd processes of this testbed, not 8"
# n0 (0,0,0) <-> n7 (1,1,1): paths XYZ via n1,n3; YZX via n2,n6; ZXY via n4,n5
SRV=n0 CLI=n7 ucp_pair diag3 -n 300 -m 1048576 -t 120 -s 7
for n in n1 n2 n4 n3 n6 n5; do
    f=$(relay_stat_pos $n forwarded)
    [ "$f" -gt 0 ] || fail "relay $n forwarded nothing: not every dimension order was used"
done
note "n0<->n7 over 3 paths of 2 relays: $(for n in n1 n3 n2 n6 n4 n5; do printf '%s=%s ' $n "$(relay_stat $n forwarded)"; done)"
# a 2-dimension pair: n0 <-> n3 via n1 (XY) or n2 (YX)
SRV=n0 CLI=n3 ucp_pair diag2 -n 200 -m 262144 -t 120 -s 8
for n in n0 n1 n2 n3 n4 n5 n6 n7; do
    for c in hop_limit no_route; do
        [ "$(relay_stat $n $c)" = 0 ] || fail "relay $n dropped frames ($c=$(relay_stat $n $c))"
    done
done
note "no relay dropped a frame"
