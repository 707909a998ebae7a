#!/bin/bash
# Two nodes, 4 rails of unequal speed, 2% loss, 1% duplication and 0.5%
# corruption on every rail: thousands of messages of 0 B .. 4 MiB both ways
# through UCP, each verified intact, exactly once and in order: with dual
# rails (bulk frames by UDP with segmentation offload, the rest raw), then
# raw rails alone and UDP rails alone. The receivers' counters must show the
# faults were met. Dual and raw rails need CAP_NET_RAW: those two runs are
# root's (HXB_TEST_USER=root), to test those rail kinds; the UDP runs are
# an ordinary user's, whose default (auto) they are.
TNAME=t20
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 4 --rate x0=1gbit,x1=500mbit,x2=2gbit,x3=250mbit \
      --loss 2 --dup 1 --corrupt 0.5
# frames the rails of a log sent as parts of segmented datagrams
gso() { grep -o " tx_gso=[0-9]*" "$1" | awk -F= '{ s += $2 } END { print s + 0 }'; }
HXB_TEST_USER=root EXTRA_ENV=UCX_HXB_MODE=dual ucp_pair dual -n 2000 -m 4194304 -t 300 -s 7
for f in "$LOG"/dual.srv "$LOG"/dual.cli; do
    [ "$(stat "$f" duplicate)" -gt 0 ] || fail "no duplicate was suppressed in $f"
    [ "$(stat "$f" retransmits)" -gt 0 ] || fail "no retransmission in $f"
    # trains left as segmented datagrams (UDP_SEGMENT): the faults then hit
    # single frames of a train on the wire, which must be repaired alone
    [ "$(gso "$f")" -gt 0 ] || fail "dual: $f sent no segmented datagram"
done
HXB_TEST_USER=root EXTRA_ENV=UCX_HXB_MODE=raw ucp_pair raw -n 500 -m 4194304 -t 300 -s 10
grep -q "retransmits=[1-9]" "$LOG"/raw.srv "$LOG"/raw.cli || fail "raw: no retransmission under loss"
EXTRA_ENV=UCX_HXB_MODE=udp ucp_pair udp -n 500 -m 4194304 -t 300 -s 8
grep -q "retransmits=[1-9]" "$LOG"/udp.srv "$LOG"/udp.cli || fail "udp: no retransmission under loss"
for f in "$LOG"/udp.srv "$LOG"/udp.cli; do
    [ "$(gso "$f")" -gt 0 ] || fail "udp: $f sent no segmented datagram"
    [ "$(stat "$f" rx_short)" -gt 0 ] || fail "udp: $f took no short frame"
done
# raw rails: no frame goes short (the ring has no room to rebuild it)
for f in "$LOG"/raw.srv "$LOG"/raw.cli; do
    [ "$(stat "$f" tx_short)" = 0 ] || fail "raw: $f sent short frames"
done

# A caller that sleeps when idle (UCP's event fd: hxb-ucp-test -b) under the
# same faults (as the user: UDP rails): every message verified, and each side slept with work
# outstanding (frames unacked, acks owed), woken by frames or by hxb's
# timer. hxb-ucp-test bounds each sleep (100 ms), so a deadline missing from
# the timer would only slow this run: the unit tests test_sleeping_* are
# what fail on one.
ucp_pair block -b -n 500 -m 4194304 -t 300 -s 9
for f in "$LOG"/block.srv "$LOG"/block.cli; do
    [ "$(stat "$f" sleeps_timed)" -gt 0 ] || fail "block: $f never slept with work outstanding"
done
grep -q "retransmits=[1-9]" "$LOG"/block.srv "$LOG"/block.cli || fail "block: no retransmission under loss"
# and woken in time: a sleep that runs out its bound is a wake hxb missed
# (frames waiting, a deadline passed) or a peer silent for 100 ms, which
# under this load it never is
for f in "$LOG"/block.srv "$LOG"/block.cli; do
    out=$(sed -n 's/^hxb_ucp_test: sleeps: [0-9]*, \([0-9]*\) ran out.*/\1/p' "$f")
    [ -n "$out" ] && [ "$out" -le 2 ] || fail "block: $f: ${out:-?} sleeps ran out their bound (missed wakes)"
done
note "block: slept $(stat "$LOG"/block.cli sleeps_timed) / $(stat "$LOG"/block.srv sleeps_timed) times with work outstanding; $(grep -h 'sleeps:' "$LOG"/block.cli)"
