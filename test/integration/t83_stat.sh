#!/bin/bash
# hxb-stat: a running process's counters read from outside while it runs
# (uct_hxb/hxb_statfile.c). Two nodes, 2 rails at 100 Mbit/s; hxb-ucp-test
# runs as the job user between them for some 10 s (64 KiB messages both
# ways, bound by the rails' rate, not the host's speed). Meanwhile, as
# that user inside n0: hxb-stat lists both processes; the server's file
# shows its 2 rails and its one peer (the client's node), and its
# counters (global, per rail, per peer) grow between two reads; --watch
# prints rates; --dump gets a state dump through the file (no signal).
# Another user (hxbuser2) reads neither the file nor hxb-stat's report of
# it. UCX_HXB_DUMP_SIGNAL=12 makes SIGUSR2 dump to the process's stderr.
# After the processes end their files are gone, and a stale file (no live
# writer) of the user's is removed by the next listing.
TNAME=s83
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2 --rate 100mbit
STAT="$HXB_BIN/hxb-stat"
OTHER=hxbuser2
id "$OTHER" >/dev/null 2>&1 || fail "no user $OTHER (contrib/setup.sh makes it)"
uid=$(id -u "$HXB_TEST_USER")

port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2046
on_user n0 timeout 60 $(hxb_env UCX_HXB_DUMP_SIGNAL=12) "$HXB_BIN/hxb-ucp-test" -p $port \
    -n 4000 -m 65536 -f -s 83 > "$LOG/srv" 2>&1 &
srv=$!
wait_listen n0 $port
# shellcheck disable=SC2046
on_user n1 timeout 60 $(hxb_env) "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port \
    -n 4000 -m 65536 -f -s 83 > "$LOG/cli" 2>&1 &
cli=$!

# the processes' pids (in this testbed's n0 and n1: other tests' nodes
# have the same names), then the listing, as the user inside n0, must show
# both (their files share /dev/shm, as the nodes share the host's mounts)
ns_proc() {
    local p
    for p in $(ip netns pids "$TNAME-$1" 2>/dev/null); do
        [ "$(cat "/proc/$p/comm" 2>/dev/null)" = hxb-ucp-test ] && { echo "$p"; return 0; }
    done
    return 0
}
spid='' cpid=''
for _ in $(seq 100); do
    spid=$(ns_proc n0) cpid=$(ns_proc n1)
    if [ -n "$spid" ] && [ -n "$cpid" ]; then
        on_user n0 "$STAT" > "$LOG/list" 2>&1 || fail "hxb-stat (list): $(cat "$LOG/list")"
        awk -v p="$spid" '$1 == p && $3 == "n0"' "$LOG/list" | grep -q . &&
            awk -v p="$cpid" '$1 == p && $3 == "n1"' "$LOG/list" | grep -q . && break
    fi
    sleep 0.1
done
[ -n "$spid" ] && [ -n "$cpid" ] || fail "no hxb-ucp-test in n0 and n1"
awk -v p="$spid" '$1 == p && $3 == "n0"' "$LOG/list" | grep -q . &&
    awk -v p="$cpid" '$1 == p && $3 == "n1"' "$LOG/list" | grep -q . ||
    fail "hxb-stat does not list server $spid (n0) and client $cpid (n1): $(cat "$LOG/list")"
note "listed: server pid $spid on n0, client pid $cpid on n1"

# two reads, a second apart: rails, the peer, counters growing
on_user n0 "$STAT" --json "$spid" > "$LOG/j1" 2>&1 || fail "hxb-stat --json: $(cat "$LOG/j1")"
sleep 1
on_user n0 "$STAT" --json "$spid" > "$LOG/j2" 2>&1 || fail "hxb-stat --json: $(cat "$LOG/j2")"
kill -0 "$cli" 2>/dev/null || fail "the transfer ended before the second read: make it longer"
python3 - "$LOG/j1" "$LOG/j2" "$spid" <<'EOF' || fail "counters: $(cat "$LOG/j2")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert b['pid'] == int(sys.argv[3]) and b['host'] == 'n0', b['pid']
assert [r['name'] for r in b['rails']] == [r['name'] for r in a['rails']]
assert len(b['rails']) == 2, 'rails: %s' % b['rails']
assert all(r['up'] for r in b['rails']), 'a rail down'
peers = [p for p in b['peers'] if p['node'] == 1]
assert len(peers) == 1, 'peers: %s' % b['peers']
p = peers[0]
p0 = [q for q in a['peers'] if q['node'] == 1]
assert b['updated'] > a['updated'], 'not updated'
assert b['counters']['tx_frames'] > a['counters']['tx_frames'], 'global tx_frames'
assert b['counters']['rx_frames'] > a['counters']['rx_frames'], 'global rx_frames'
assert sum(r['tx_bytes'] for r in b['rails']) > sum(r['tx_bytes'] for r in a['rails']), 'rail tx_bytes'
assert all(r['tx_frames'] > 0 for r in b['rails']), 'a rail carried nothing'
assert not p0 or p['rx_frames'] > p0[0]['rx_frames'], 'peer rx_frames'
assert p['tx_frames'] > 0 and p['srtt'] > 0 and p['rail_mask'] == 3, p
print('  2 rails, peer %d.%d: tx %d -> %d frames, peer rx %d frames, srtt %.0f us' % (
    p['node'], p['proc'], a['counters']['tx_frames'], b['counters']['tx_frames'],
    p['rx_frames'], p['srtt'] * 1e6))
EOF

# text with rates
on_user n0 "$STAT" --watch 0.3 --count 2 "$spid" > "$LOG/watch" 2>&1 || fail "hxb-stat --watch: $(cat "$LOG/watch")"
grep -q "TX_MB/S" "$LOG/watch" || fail "hxb-stat --watch: no rates: $(cat "$LOG/watch")"
[ "$(grep -c "^pid $spid on n0" "$LOG/watch")" = 2 ] || fail "hxb-stat --watch --count 2: not 2 reports"

# a dump through the file: no signal
on_user n0 "$STAT" --dump "$spid" > "$LOG/dump" 2>&1 || fail "hxb-stat --dump: $(cat "$LOG/dump")"
grep -q "^hxb dump: pid $spid" "$LOG/dump" && grep -q "^rail 1 " "$LOG/dump" &&
    grep -q "^peer 1\." "$LOG/dump" && grep -q "^  tx: next" "$LOG/dump" ||
    fail "hxb-stat --dump: $(head -5 "$LOG/dump")"
note "dump on request: $(grep -c . "$LOG/dump") lines"
# and on the signal asked for (UCX_HXB_DUMP_SIGNAL=12)
kill -USR2 "$spid"
for _ in $(seq 50); do grep -q "^hxb dump: pid $spid" "$LOG/srv" && break; sleep 0.1; done
grep -q "^hxb dump: pid $spid" "$LOG/srv" || fail "SIGUSR2: no dump on the server's stderr"
note "SIGUSR2: dump on stderr"

# another user: neither the file nor the report
files=(/dev/shm/hxb."$uid"."$spid".*)
[ -f "${files[0]}" ] || fail "no file /dev/shm/hxb.$uid.$spid.*"
[ "$(command stat -c %a "${files[0]}")" = 600 ] || fail "${files[0]} has mode $(command stat -c %a "${files[0]}")"
! "$TB" exec --name "$TNAME" --user "$OTHER" n0 cat "${files[0]}" >/dev/null 2>&1 ||
    fail "$OTHER reads ${files[0]}"
"$TB" exec --name "$TNAME" --user "$OTHER" n0 "$STAT" "$spid" > "$LOG/other" 2>&1 &&
    fail "$OTHER got $HXB_TEST_USER's counters: $(head -3 "$LOG/other")"
grep -q "user $uid's" "$LOG/other" || fail "$OTHER's refusal does not say why: $(cat "$LOG/other")"
"$TB" exec --name "$TNAME" --user "$OTHER" n0 "$STAT" > "$LOG/other" 2>&1 || fail "hxb-stat as $OTHER"
! grep -q "^$spid " "$LOG/other" || fail "$OTHER's listing shows $HXB_TEST_USER's process"
note "$OTHER: no access (mode 600), not listed"

wait "$cli" || fail "client: $(grep -h FAIL "$LOG/cli" | head -1)"
wait "$srv" || fail "server: $(grep -h FAIL "$LOG/srv" | head -1)"
grep -q "hxb_ucp_test: ok" "$LOG/srv" || fail "server did not verify"
ls /dev/shm/hxb."$uid"."$spid".* /dev/shm/hxb."$uid"."$cpid".* >/dev/null 2>&1 &&
    fail "files left after exit: $(ls /dev/shm/hxb."$uid"."$spid".* /dev/shm/hxb."$uid"."$cpid".*)"
on_user n0 "$STAT" "$spid" > "$LOG/gone" 2>&1 && fail "hxb-stat reads an ended process"
grep -q "no process $spid" "$LOG/gone" || fail "ended process: $(cat "$LOG/gone")"
note "files removed at exit; 'no process $spid' after"

# a stale file (its writer gone without closing: nobody holds its lock)
stale=/dev/shm/hxb.$uid.$((4000000 + RANDOM)).1
on_user n0 sh -c "head -c 4096 /dev/zero > $stale"
on_user n0 "$STAT" > "$LOG/list" 2>&1 || fail "hxb-stat (list): $(cat "$LOG/list")"
[ ! -e "$stale" ] || { rm -f "$stale"; fail "stale $stale kept by the listing"; }
note "stale file removed by the listing"
echo "PASS t83_stat"
