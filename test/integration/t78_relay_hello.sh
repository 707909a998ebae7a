#!/bin/bash
# The relay daemons' neighbour protocol is authenticated (issue 27): with a
# cluster key, a HELLO forged without it, or a genuine one replayed, does not
# bring a dead neighbour back; the daemon restarted with the key does.
TNAME=${TNAME:-r78}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2 --rails 1
relay_up
hello="$top/test/integration/hello_frames.py"
# relay_stop NODE: its daemon told to stop, and gone (it holds the node's
# lock until it has detached) within 10 s
relay_stop() {
    node_kill "$1" TERM hxb-relayd || fail "no hxb-relayd on $1"
    for _ in $(seq 100); do
        node_kill "$1" 0 hxb-relayd 2>/dev/null || return 0
        sleep 0.1
    done
    fail "hxb-relayd on $1 still runs 10 s after SIGTERM"
}
# a genuine HELLO of n1, seen on n0's x rail
on n0 python3 "$hello" capture x0 1 "$LOG/hello.n1" > "$LOG/capture" 2>&1 ||
    fail "no HELLO of n1 on n0's x0: $(cat "$LOG/capture")"
relay_wait n0 "x0 n1 alive"
relay_stop n1
relay_wait n0 "x0 n1 dead"
# from n1's own rail (its MAC, as the topology says): 20 without the key,
# then the genuine one replayed 20 times, each over 1 s (10 HELLO periods)
on n1 python3 "$hello" forge x0 1 0 0 20 > "$LOG/forge" 2>&1 || fail "forge: $(cat "$LOG/forge")"
on n1 python3 "$hello" replay x0 "$LOG/hello.n1" 20 >> "$LOG/forge" 2>&1 || fail "replay: $(cat "$LOG/forge")"
sleep 0.3            # the daemon's stats file follows within an interval
grep -q "^neighbour x0 n1 dead$" "$LOG/relay-n0" ||
    fail "n0 believed a forged or replayed HELLO: $(grep 'x0 n1' "$LOG/relay-n0")"
rej=$(grep -o "hello_rejected=[0-9]*" "$LOG/relay-n0" | cut -d= -f2)
[ "${rej:-0}" -ge 40 ] || fail "n0 rejected ${rej:-0} HELLOs, 40 were forged or replayed"
# a daemon with another key is not believed either
(umask 077; head -c 32 /dev/urandom > "$LOG/other.key")
relay_start n1 "$LOG/other.key"
relay_started n1
sleep 0.5
grep -q "^neighbour x0 n1 dead$" "$LOG/relay-n0" || fail "n0 believed a daemon with another key"
relay_stop n1
# the daemon restarted with the cluster key is believed at once
relay_start n1
relay_started n1
relay_wait n0 "x0 n1 alive"
note "forged (no key) and replayed HELLOs of a dead neighbour: $rej rejected, it stayed dead; another key: dead; restarted with the key: alive"
# and relaying works: n1 and n2 are 2 dimensions apart, through n0 or n3
SRV=n1 CLI=n2 ucp_pair after -n 30 -m 100000 -t 60
