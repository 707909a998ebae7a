#!/bin/bash
# Detours on lines of three nodes: on a 3x3 grid, n0 (0,0) and n3 (0,1)
# lose their x rails. n3 then reaches n1 (1,0) only over y, through n0,
# which cannot fix x: it detours along y, to n3 or n6. A frame detoured to
# n3 arrived over a dimension it has not fixed; the rule used to fix that
# one first and send it straight back to n0, and the two bounced it until
# the hop limit dropped it (PROTOCOL.md 8.10, rule 6). Now a detoured frame
# goes on along its line to a node it did not come from (n6), and from there
# over x and y to n1. The other way, n1's y path detours at n4 the same way.
# Both transfers are verified (intact, exactly once, in order) and must go
# through detours; the second with rendezvous-sized messages.
TNAME=${TNAME:-r77}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 3x3 --rails 1 --rate 1gbit
relay_up
# cut only once the neighbours were heard (one never heard counts as alive)
relay_wait n1 "x0 n0 alive" n4 "x0 n3 alive"
for n in n0 n3; do "$TB" link --name "$TNAME" "$n" x0 down >/dev/null; done
relay_wait n1 "x0 n0 dead" n4 "x0 n3 dead"
d0=0 h0=0
for n in n0 n1 n3 n4 n6 n7; do
    d0=$((d0 + $(relay_stat "$n" detour))); h0=$((h0 + $(relay_stat "$n" hop_limit)))
done
SRV=n1 CLI=n3 ucp_pair n3_n1 -n 300 -m 100000 -t 120 -s 77
# Messages past UCP's rendezvous threshold: n1 then sends little but ACKs,
# and the first rail (x0) leads to n0, whose x rail is down. n1 used to ack
# into that path for ever and n3 failed it (PROTOCOL.md 8.4, ACK rail).
SRV=n1 CLI=n3 ucp_pair n3_n1_rndv -n 300 -m 1048576 -t 120 -s 77
d=0 h=0
for n in n0 n1 n3 n4 n6 n7; do
    d=$((d + $(relay_stat_pos "$n" detour))); h=$((h + $(relay_stat "$n" hop_limit)))
done
[ $((d - d0)) -gt 0 ] || fail "no relay detoured"
note "n3 <-> n1 without n0's and n3's x rails: $((d - d0)) frames detoured, $((h - h0)) dropped at the hop limit"
