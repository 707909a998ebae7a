#!/bin/bash
# The testbed's rails coalesce what they receive (--gro on), as real NICs do:
# UDP datagrams of a flow then reach the socket merged by the kernel, trains
# of the sender's and datagrams it sent one by one alike, and hxb must cut
# them back into its frames (short ones rebuilt in place). Every message
# verified, both ways, on UDP rails (the user's) and dual rails (root's),
# under loss so that trains have holes.
TNAME=t21
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2 --rate 1gbit --gro on --loss 0.5
on n0 ethtool -k x0 | grep -q "generic-receive-offload: on" || fail "--gro on: x0 of n0 does not coalesce"
grep -q "GRO on" < <("$TB" status --name "$TNAME") || fail "status does not say GRO on"
EXTRA_ENV=UCX_HXB_MODE=udp ucp_pair udp -n 500 -m 4194304 -t 300 -s 21
HXB_TEST_USER=root EXTRA_ENV=UCX_HXB_MODE=dual ucp_pair dual -n 300 -m 4194304 -t 300 -s 22
for f in "$LOG"/udp.srv "$LOG"/udp.cli "$LOG"/dual.srv "$LOG"/dual.cli; do
    g=$(grep -o " rx_gro=[0-9]*" "$f" | awk -F= '{ s += $2 } END { print s + 0 }')
    [ "$g" -gt 0 ] || fail "${f##*/}: no datagram arrived coalesced"
    # later fragments went in short form (PROTOCOL.md 3.1), rebuilt in the
    # room in front of each frame, a coalesced train's in the frame before
    [ "$(stat "$f" rx_short)" -gt 0 ] || fail "${f##*/}: no short frame arrived"
    [ "$(stat "$f" tx_short)" -gt 0 ] || fail "${f##*/}: no short frame sent"
done
note "GRO on the rails: udp and dual verified, coalesced datagrams cut back into frames, short frames rebuilt"
