#!/bin/bash
# hxb-cablecheck (issue 30, item 4): on a running cluster it finds every
# rail where the topology file says (exit 0), and names the node, the rail
# and the fault for each miswiring the testbed makes: two rails of a node
# swapped, a rail moved onto another line's switch, a rail unplugged, an MTU
# unlike the rest of its switch; once re-cabled, all is well again. Checked
# on every node at once (--remote) by the nodes' probes alone, then with
# hxb-relayd's HELLOs too, and on one node from the relays' HELLOs alone
# (--passive); a node with another cluster key believes none of them, and
# says so. A 3x3 grid: lines of 3 nodes, so that the majority on a switch
# tells which rail is the stray one.
TNAME=${TNAME:-r81}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
[ -x "$HXB_BIN/hxb-cablecheck" ] || fail "hxb-cablecheck not built"
tb_up --grid 3x3 --rails 2
# check NAME [options]: the cluster's check (every node at once through the
# testbed's exec; a busy host may take long to start them), its output in
# $LOG/NAME; RC its exit status
check() {
    local name=$1; shift
    RC=0
    timeout 400 "$HXB_BIN/hxb-cablecheck" --topo "$TOPO" --key "$LOG/cluster.key" --wait 1000 \
        --timeout 300 --remote "$TB exec --name $TNAME %n" "$@" > "$LOG/$name" 2>&1 || RC=$?
}
# local_check NAME NODE: NODE's own check from its neighbours' HELLOs
local_check() {
    RC=0
    timeout 300 "$TB" exec --name "$TNAME" "$2" "$HXB_BIN/hxb-cablecheck" \
        --key "$LOG/cluster.key" --wait 1000 --passive > "$LOG/$1" 2>&1 || RC=$?
}
# expect NAME PROBLEMS LINE...: the check failed (exit 1) with exactly
# PROBLEMS problems, and printed each LINE (a fixed string)
expect() {
    local name=$1 n=$2 l; shift 2
    [ "$RC" = 1 ] || fail "$name: exit status $RC, not 1: $(cat "$LOG/$name")"
    grep -qx "$n problems\? found" "$LOG/$name" ||
        fail "$name: not $n problem(s): $(cat "$LOG/$name")"
    for l in "$@"; do
        grep -qF -- "$l" "$LOG/$name" || fail "$name: no line '$l' in: $(cat "$LOG/$name")"
    done
    note "$name: $(head -1 "$LOG/$name")"
}
expect_ok() {
    [ "$RC" = 0 ] || fail "$1: exit status $RC: $(cat "$LOG/$1")"
    grep -q "^all $2 rails as the topology says" "$LOG/$1" || fail "$1: $(cat "$LOG/$1")"
    note "$1: $(cat "$LOG/$1")"
}
miswire() { "$TB" miswire --name "$TNAME" "$@" >> "$LOG/testbed" 2>&1 || fail "miswire $*"; }

# without hxb-relayd: the nodes' probes alone (they must listen at the same
# time, and a busy host starts them one by one: they listen until 10 s after
# the first was started)
[ -s "$LOG/cluster.key" ] || (umask 077; head -c 32 /dev/urandom > "$LOG/cluster.key")
check probes --spread 10000
expect_ok probes 36
relay_up
check wired
expect_ok wired 36
local_check wired.n4 n4
expect_ok wired.n4 4

# n0 with another cluster key: its neighbours' HELLOs are not believed
(umask 077; head -c 32 /dev/urandom > "$LOG/other.key")
RC=0
timeout 300 "$TB" exec --name "$TNAME" n0 "$HXB_BIN/hxb-cablecheck" --key "$LOG/other.key" \
    --wait 1000 --passive > "$LOG/otherkey" 2>&1 || RC=$?
expect otherkey 8 "n0 x0: frames claiming to be n1's rail x0 have a wrong tag" \
    "n0 y1: frames claiming to be n6's rail y1 have a wrong tag"

# n4's x0 and y1 swapped (at the switch end)
miswire swap n4 x0 y1
check swap
expect swap 2 \
    "n4: x0 is cabled to switch y1 of line (1,*) (reaches n1, n7) but the topology says switch x0 of line (*,1) (n3, n5); swapped with y1?" \
    "n4: y1 is cabled to switch x0 of line (*,1) (reaches n3, n5) but the topology says switch y1 of line (1,*) (n1, n7); swapped with x0?"
# n4 alone, from its neighbours' hxb-relayd HELLOs, says the same
local_check swap.n4 n4
expect swap.n4 2 "n4: x0 is cabled to switch y1 of line (1,*)" "swapped with y1?" \
    "n4: y1 is cabled to switch x0 of line (*,1)" "swapped with x0?"
# and n4's relay no longer ignores those HELLOs in silence
for _ in $(seq 50); do [ "$(relay_stat n4 hello_other_line)" -gt 0 ] && break; sleep 0.1; done
[ "$(relay_stat n4 hello_other_line)" -gt 0 ] || fail "n4's relay counted no HELLO of another line"
grep -q "rail x0 hears the HELLOs node n[17] sends on its rail y1" "$LOG/relayd-n4" ||
    fail "n4's relay did not say its x0 hears y1's HELLOs: $(cat "$LOG/relayd-n4")"
miswire restore
check restored
expect_ok restored 36

# n2's y1 moved onto the switch of line y=0's x rail 0
miswire move n2 y1 n0 x0
check move
expect move 1 \
    "n2: y1 is cabled to switch x0 of line (*,0) (reaches n0, n1, its own x0) but the topology says switch y1 of line (2,*) (n5, n8) (where its x0 belongs)"
miswire restore

# n3's x1 unplugged at the switch
miswire unplug n3 x1
check unplug
expect unplug 1 "n3 x1: link down"
miswire restore

# n5's y0 at MTU 1500, the rest of its switch at 9000
miswire mtu n5 y0 1500
check mtu
expect mtu 1 "switch y0 of line (2,*): n5 y0 MTU 1500, the others 9000"
miswire restore

check again
expect_ok again 36
