#!/bin/bash
# A rail goes down in the middle of a transfer: the transfer completes,
# every message verified, and the senders report the failover.
TNAME=t30
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2 --rate 1gbit
( sleep 1.5; "$TB" link --name "$TNAME" n0 x1 down >/dev/null ) &
ucp_pair raildown -n 1500 -m 4194304 -t 240 -s 3
wait
# the cut must have happened during the transfer, or this test proved nothing
f=$(( $(stat "$LOG"/raildown.srv rail_failovers) + $(stat "$LOG"/raildown.cli rail_failovers) ))
[ "$f" -gt 0 ] || fail "no rail failover seen: the transfer ended before the cut?"
note "rail x1 cut mid-transfer: $f failover(s), all messages verified"
