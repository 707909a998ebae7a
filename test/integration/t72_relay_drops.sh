#!/bin/bash
# Frames no relay may forward for ever: a destination outside the grid is
# dropped and counted (no_route) by the first relay; a frame whose hop limit
# runs out is forwarded while it lasts (hops decremented by each relay) and
# dropped and counted (hop_limit) by the relay where it reaches 1. The same
# for UDP rails' datagrams sent to a relay's port 885 by an ordinary user,
# and one for a port outside the processes' range (a service's: relays must
# not let anyone reach it from their privileged port) is refused at the
# last relay and never reaches that port.
TNAME=${TNAME:-r72}    # a run may name its own testbed
. "$(dirname "$0")/lib.sh"
tb_up --grid 2x2x2 --rails 1
relay_up
# (the injector writes raw frames, as root: it plays a broken or hostile
# sender on the wire, not a job; the job at the end is the user's)
inj="$top/test/integration/inject_relay_frames.py"
# from n0 on x0 to relay n1: node 4000 is outside the 2x2x2 grid
on n0 python3 "$inj" x0 "$(iface_mac n1 x0)" 4000 8 7 > "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
# to n7 with hops 2: n1 forwards it (hops 1) to n3, which must drop it
on n0 python3 "$inj" x0 "$(iface_mac n1 x0)" 7 2 5 >> "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
# hops 1 at the first relay: dropped there
on n0 python3 "$inj" x0 "$(iface_mac n1 x0)" 7 1 3 >> "$LOG/inject" 2>&1 || fail "inject: $(cat "$LOG/inject")"
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
# UDP, as an ordinary user: the same drops, and a datagram for a service's
# port (1000, outside the ephemeral range processes bind) is refused by n1,
# the last relay towards n3, and never reaches a socket there
on n3 timeout 10 python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 1000)); s.settimeout(6)
try: s.recv(100); print("received")
except socket.timeout: print("nothing")' > "$LOG/listen" 2>&1 &
listener=$!
for _ in $(seq 50); do on n3 ss -Huln "sport = :1000" | grep -q . && break; sleep 0.1; done
on n3 ss -Huln "sport = :1000" | grep -q . || fail "the listener on n3 port 1000 did not start"
uinj() { on_user n0 python3 "$inj" --udp "$(iface_ip n1 x0)" "$@" >> "$LOG/inject" 2>&1 ||
             fail "inject (udp): $(tail -2 "$LOG/inject")"; }
uinj 4000 8 2         # outside the grid
uinj 7 2 4 40000      # hop limit runs out at n3
uinj 3 8 6 1000       # a service's port on n3
want n1 no_route 9
want n1 hop_limit 3
want n1 udp 4
want n3 hop_limit 9
want n1 refused 6
wait $listener
[ "$(cat "$LOG/listen")" = nothing ] || fail "a relayed datagram reached port 1000 on n3: $(cat "$LOG/listen")"
note "UDP as an ordinary user: 2 outside the grid, 4 out of hops at n3, 6 for a service's port refused at n1, none arrived"
# and the relays still relay real traffic
SRV=n0 CLI=n7 ucp_pair after -n 50 -m 100000 -t 60
