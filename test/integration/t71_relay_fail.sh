#!/bin/bash
# Failures on relay paths, mid-transfer, on a 2x2x2 grid with 2 rails:
# 1. a relay's onward rail goes down: the relay carries on over its other
#    rail of that dimension;
# 2. a whole relay node goes down (every rail): its neighbours find it dead
#    (HELLOs stop) and forward on another dimension order, the senders move
#    their traffic to the paths that still acknowledge;
# 3. it comes back: it is seen alive again and relays again.
# Every message of every transfer is verified (intact, once, in order).
TNAME=${TNAME:-r71}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 2 --rate 1gbit
relay_up

# cut_mid NAME AFTER_FRAMES NODE IF...: run n0<->n7 in the background, take the
# interfaces down once relay n1 has forwarded AFTER_FRAMES more frames, and
# check the transfer was still running then.
cut_mid() {
    local name=$1 after=$2 node=$3 base pid i; shift 3
    base=$(relay_stat n1 forwarded)
    ( SRV=n0 CLI=n7 ucp_pair "$name" -n 1500 -m 4194304 -t 240 -s 11 ) &
    pid=$!
    for i in $(seq 600); do
        [ $(( $(relay_stat n1 forwarded) - base )) -ge "$after" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    kill -0 $pid 2>/dev/null || { wait $pid; fail "$name: transfer ended before the cut"; }
    for i in "$@"; do "$TB" link --name "$TNAME" "$node" "$i" down >/dev/null; done
    wait $pid || fail "$name: transfer failed after the cut"
}

# 1. relay n1's rail y0 towards n3 (order XYZ from n0)
cut_mid rail 2000 n1 y0
for _ in $(seq 30); do grep -q "^neighbour y0 n3 dead" "$LOG/relay-n1" && break; sleep 0.1; done
note "relay n1 lost y0 mid-transfer, forwarded $(relay_stat n1 forwarded) frames in all"
"$TB" link --name "$TNAME" n1 y0 up >/dev/null

# 2. relay node n3 (second relay of XYZ from n0, first of ZXY from n7) dies
cut_mid node 2000 n3 x0 x1 y0 y1 z0 z1
grep -q "^neighbour y0 n3 dead" "$LOG/relay-n1" || fail "relay n1 did not find n3 dead"
note "relay node n3 died mid-transfer: n1 deflected $(relay_stat n1 deflected) frames to another order"

# 3. n3 comes back: seen alive, and relays again
for i in x0 x1 y0 y1 z0 z1; do "$TB" link --name "$TNAME" n3 "$i" up >/dev/null; done
for _ in $(seq 100); do
    grep -q "^neighbour y0 n3 alive" "$LOG/relay-n1" && grep -q "^neighbour y1 n3 alive" "$LOG/relay-n1" && break
    sleep 0.1
done
grep -q "^neighbour y1 n3 alive" "$LOG/relay-n1" || fail "relay n1 did not see n3 come back"
before=$(relay_stat n3 forwarded)
SRV=n0 CLI=n7 ucp_pair back -n 300 -m 1048576 -t 120 -s 12
for _ in $(seq 20); do [ "$(relay_stat n3 forwarded)" -gt "$before" ] && break; sleep 0.1; done
[ "$(relay_stat n3 forwarded)" -gt "$before" ] || fail "n3 relays nothing after coming back"
note "n3 back: relayed $(( $(relay_stat n3 forwarded) - before )) frames again"
