#!/bin/bash
# A grid that needs two relays on some paths, 3x2x2 with 2 rails, with loss,
# duplication and corruption on every rail: UCP traffic between nodes 3
# dimensions apart (over 3 paths of 2 relays each, all used) and one pair 2
# dimensions apart on the 3-node x lines, every message verified intact,
# once, in order; then a UCT client (ucx_perftest am_bw) across 2 relays.
TNAME=${TNAME:-r73}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 3x2x2 --rails 2 --rate 1gbit --loss 1 --dup 0.5 --corrupt 0.2
relay_up
# n0 (0,0,0) <-> n11 (2,1,1): XYZ via n2,n5; YZX via n3,n9; ZXY via n6,n8
SRV=n0 CLI=n11 ucp_pair far -n 300 -m 1048576 -t 180 -s 21
for n in n2 n5 n3 n9 n6 n8; do
    [ "$(relay_stat_pos $n forwarded)" -gt 0 ] || fail "relay $n forwarded nothing: a dimension order was not used"
done
for f in "$LOG"/far.srv "$LOG"/far.cli; do
    [ "$(stat "$f" retransmits)" -gt 0 ] || fail "no retransmission in $f: were the faults on?"
done
note "n0<->n11: relays $(for n in n2 n5 n3 n9 n6 n8; do printf '%s=%s ' $n "$(relay_stat $n forwarded)"; done)"
# n1 (1,0,0) <-> n10 (1,1,1): x equal, orders YZ via n4 and ZY via n7
SRV=n1 CLI=n10 ucp_pair mid -n 200 -m 262144 -t 180 -s 22
# UCT: active messages across two relays
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2046
on_user n0 timeout 60 $(hxb_env) $PERFTEST -p $port -t am_bw -x hxb -d hxb0 -D zcopy -s 60000 -n 2000 > "$LOG/uct.srv" 2>&1 &
srv=$!
wait_listen n0 $port
# shellcheck disable=SC2046
on_user n11 timeout 60 $(hxb_env) $PERFTEST 198.18.0.1 -p $port -t am_bw -x hxb -d hxb0 -D zcopy -s 60000 -n 2000 \
    > "$LOG/uct.cli" 2>&1 || fail "uct am_bw: $(grep -h -i error "$LOG/uct.cli" "$LOG/uct.srv" | head -2)"
wait $srv || fail "uct am_bw: server failed"
grep -q "^Final:" "$LOG/uct.cli" || fail "uct am_bw: no result"
note "uct am_bw n0<->n11 over 2 relays under faults: completed"
