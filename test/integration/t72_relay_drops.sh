#!/bin/bash
# Frames no relay may forward for ever: a destination outside the grid is
# dropped and counted (no_route) by the first relay; a frame whose hop limit
# runs out is forwarded while it lasts (hops decremented by each relay) and
# dropped and counted (hop_limit) by the relay where it reaches 1.
TNAME=${TNAME:-r72}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 1
relay_up
# (the injector writes raw frames, as root: it plays a broken or hostile
# sender on the wire, not a job; the job at the end is the user's)
inj="$top/test/integration/inject_relay_frames.py"
mac() { awk -v n="$1" -v i="$2" '$1 == "iface" && $2 == n && $5 == i {print $6}' "$TOPO"; }
# from n0 on x0 to relay n1: node 4000 is outside the 2x2x2 grid
on n0 python3 "$inj" x0 "$(mac n1 x0)" 4000 8 7 > "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
# to n7 with hops 2: n1 forwards it (hops 1) to n3, which must drop it
on n0 python3 "$inj" x0 "$(mac n1 x0)" 7 2 5 >> "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
# hops 1 at the first relay: dropped there
on n0 python3 "$inj" x0 "$(mac n1 x0)" 7 1 3 >> "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
want() { # NODE COUNTER VALUE: wait (bounded) for the relay's counter file
    local v=""
    for _ in $(seq 50); do
        v=$(relay_stat "$1" "$2")
        [ "$v" = "$3" ] && return 0
        sleep 0.1
    done
    fail "relay $1: $2 is '$v', expected $3"
}
want n1 no_route 7
want n1 hop_limit 3
want n1 forwarded 5
want n3 hop_limit 5
want n3 forwarded 0
want n7 local 0
note "outside the grid: 7 dropped at n1 (no_route); hop limit: 3 dropped at n1, 5 forwarded by n1 and dropped at n3 (hop_limit)"
# and the relays still relay real traffic
SRV=n0 CLI=n7 ucp_pair after -n 50 -m 100000 -t 60
