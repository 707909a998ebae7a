#!/bin/bash
# Frames with a wrong tag (another job's key, or the job key itself where
# the process authenticates frames), a bad version, an unknown kind, a lying
# length or a bad checksum reach a process (they pass the kernel filter:
# right destination process) and are dropped and counted, never delivered;
# the process then still talks normally.
# Root's processes (HXB_TEST_USER=root), on purpose: the malformed frames
# are raw Ethernet frames (inject_frames.py, AF_PACKET), which reach only a
# process with raw rails, and those need CAP_NET_RAW. An ordinary user's
# process (UDP rails) would never see them.
TNAME=t40
HXB_TEST_USER=root
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 1
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2046
on_user n0 $(hxb_env) "$HXB_BIN/hxb-ucp-test" -p $port -n 100 -m 100000 -t 120 > "$LOG/srv" 2>&1 &
srv=$!
# the server's process id on its node is the UDP port it reserved
proc=""
for _ in $(seq 100); do
    proc=$(on n0 ss -Hulpn 2>/dev/null | awk '/hxb-ucp-test/ {split($4, a, ":"); print a[length(a)]; exit}')
    [ -n "$proc" ] && break
    sleep 0.1
done
[ -n "$proc" ] || fail "server did not start"
mac=$(awk '$1 == "iface" && $2 == "n0" && $5 == "x0" {print $6}' "$TOPO")
on n1 python3 "$top/test/integration/inject_frames.py" x0 "$mac" 0 "$proc" $KEY 5 > "$LOG/inject" 2>&1 ||
    fail "injector: $(cat "$LOG/inject")"
# shellcheck disable=SC2046
on_user n1 $(hxb_env) "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port -n 100 -m 100000 -t 120 > "$LOG/cli" 2>&1 ||
    fail "client: $(grep FAIL "$LOG/cli")"
wait $srv || fail "server: $(grep FAIL "$LOG/srv")"
for c in auth:10 version:5 kind:5 length:5 checksum:5; do
    v=$(stat "$LOG/srv" "${c%:*}")
    [ "$v" = "${c#*:}" ] || fail "counter ${c%:*} is '$v', expected ${c#*:} (so many such frames injected)"
done
note "5 each of another job's tag, a forged tag (the job key), bad version, unknown kind, lying length, bad checksum: dropped and counted"
