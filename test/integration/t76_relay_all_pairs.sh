#!/bin/bash
# Every pair of a 2x2x2 grid with 2 rails per dimension exchanges UCP
# traffic under 1 % loss on every rail: 28 pairs (12 on a line, 12 through
# one relay, 4 through two), in 7 rounds of 4 disjoint pairs at once (a
# round-robin schedule), every message verified intact, once and in order
# at both ends. The loss must have dropped frames (nft counters), the relays
# must have forwarded, and no relay may have dropped a frame for its hop
# limit or for want of a route.
TNAME=${TNAME:-r76}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 2 --rate 1gbit --loss 1
relay_up
# circle method: node 7 stays, nodes 0-6 rotate; round r pairs 7 with r and
# (r + k) with (r - k) mod 7 for k = 1..3
for r in 0 1 2 3 4 5 6; do
    pids=()
    for k in 0 1 2 3; do
        if [ "$k" = 0 ]; then a=7 b=$r; else a=$(((r + k) % 7)) b=$(((r - k + 7) % 7)); fi
        ( SRV=n$a CLI=n$b ucp_pair "p$a-$b" -n 60 -m 262144 -t 120 -s $((8 * a + b)) ) \
            > "$LOG/round$r.$k" 2>&1 &
        pids+=($!)
    done
    for k in 0 1 2 3; do
        wait "${pids[$k]}" || fail "round $r: $(grep -h FAIL "$LOG/round$r.$k" | head -1)"
    done
done
n=$(ls "$LOG"/p*.srv | wc -l)
[ "$n" = 28 ] || fail "$n of 28 pairs ran"
r=0
for f in "$LOG"/p*.srv "$LOG"/p*.cli; do
    grep -q "hxb_ucp_test: ok" "$f" || fail "$f did not verify"
    r=$((r + $(stat "$f" retransmits)))
done
d=$(tb_drops)
[ "$d" -gt 0 ] || fail "1 % loss on every rail but the testbed dropped nothing"
for m in n0 n1 n2 n3 n4 n5 n6 n7; do
    [ "$(relay_stat_pos $m forwarded)" -gt 0 ] || fail "relay $m forwarded nothing"
    for c in hop_limit no_route; do
        [ "$(relay_stat $m $c)" = 0 ] || fail "relay $m dropped frames ($c=$(relay_stat $m $c))"
    done
done
note "28 pairs verified under 1 % loss: $d frames dropped, $r resent; forwarded: $(for m in n0 n1 n2 n3 n4 n5 n6 n7; do printf '%s=%s ' $m "$(relay_stat $m forwarded)"; done)"
