#!/bin/bash
# The last hop of a path dies: on a 2x2x2 grid with 2 rails, n0's rails of
# two dimensions (y and z) go down in the middle of transfers n7 <-> n0 and
# n3 <-> n0. Frames for n0 then reach relays whose only rail towards n0 is
# dead (n4 on z, n2 on y); they detour along a dimension already fixed and
# arrive over n0's x rails. Every message of both transfers is verified
# (intact, exactly once, in order). Then the rails come back: the relays see
# n0 alive again and the y and z paths carry traffic again.
TNAME=${TNAME:-r74}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 2 --rate 1gbit
relay_up

# both transfers in the background; cut n0's y and z rails once the last
# relays of the z and y paths (n4, n2) have forwarded some of their frames
base4=$(relay_stat n4 forwarded)
base2=$(relay_stat n2 forwarded)
( SRV=n0 CLI=n7 ucp_pair n7 -n 1200 -m 4194304 -t 240 -s 21 ) &
p7=$!
( SRV=n0 CLI=n3 ucp_pair n3 -n 1200 -m 4194304 -t 240 -s 22 ) &
p3=$!
for _ in $(seq 600); do
    [ $(( $(relay_stat n4 forwarded) - base4 )) -ge 1000 ] &&
        [ $(( $(relay_stat n2 forwarded) - base2 )) -ge 1000 ] && break
    kill -0 $p7 2>/dev/null && kill -0 $p3 2>/dev/null || break
    sleep 0.1
done
kill -0 $p7 2>/dev/null && kill -0 $p3 2>/dev/null ||
    { wait $p7 $p3; fail "a transfer ended before the cut"; }
for i in y0 y1 z0 z1; do "$TB" link --name "$TNAME" n0 "$i" down >/dev/null; done
wait $p7 || fail "n7 <-> n0 failed after n0 lost its y and z rails"
wait $p3 || fail "n3 <-> n0 failed after n0 lost its y and z rails"
grep -q "^neighbour z0 n0 dead" "$LOG/relay-n4" || fail "relay n4 did not find n0 dead on z0"
grep -q "^neighbour y1 n0 dead" "$LOG/relay-n2" || fail "relay n2 did not find n0 dead on y1"
det=$(( $(relay_stat n2 detour) + $(relay_stat n4 detour) ))
[ "$det" -gt 0 ] || fail "no relay detoured around n0's dead rails"
note "n0 lost y and z mid-transfer: n2 and n4 detoured $det frames, no_route n2=$(relay_stat n2 no_route) n4=$(relay_stat n4 no_route)"

# the rails come back: n0 alive again on y and z, and those paths used
for i in y0 y1 z0 z1; do "$TB" link --name "$TNAME" n0 "$i" up >/dev/null; done
relay_wait n4 "z1 n0 alive" n2 "y1 n0 alive"
b4=$(relay_stat n4 forwarded)
d4=$(relay_stat n4 detour)
SRV=n0 CLI=n7 ucp_pair back -n 300 -m 1048576 -t 120 -s 23
for _ in $(seq 20); do [ "$(relay_stat n4 forwarded)" -gt "$b4" ] && break; sleep 0.1; done
[ "$(relay_stat n4 forwarded)" -gt "$b4" ] || fail "n4 relays nothing towards n0 after its rails came back"
note "n0's rails back: n4 forwarded $(( $(relay_stat n4 forwarded) - b4 )) frames, $(( $(relay_stat n4 detour) - d4 )) of them detoured"
