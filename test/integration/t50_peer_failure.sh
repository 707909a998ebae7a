#!/bin/bash
# The peer dies in the middle of a transfer: the survivor is told (an
# error, not a hang) within the peer timeout.
TNAME=t50
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2 --rate 1gbit
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2046
on_user n0 $(hxb_env UCX_HXB_PEER_TIMEOUT=2s UCX_KEEPALIVE_INTERVAL=500ms) "$HXB_BIN/hxb-ucp-test" -p $port -n 100000 -t 100 > "$LOG/srv" 2>&1 &
srv=$!
# shellcheck disable=SC2046
on_user n1 $(hxb_env UCX_HXB_PEER_TIMEOUT=2s UCX_KEEPALIVE_INTERVAL=500ms) "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port -n 100000 -t 100 > "$LOG/cli" 2>&1 &
cli=$!
sleep 2
node_kill n1 KILL hxb-ucp-test || fail "client was not running"
wait $cli 2>/dev/null || true
set +e
wait $srv
rc=$?
set -e
[ $rc -ne 0 ] || fail "server claimed success after its peer died"
[ $rc -ne 2 ] || fail "server hung until its own timeout instead of being told"
grep -q -i -E "timeout|unreachable|failure|error" "$LOG/srv" || fail "server gave no error"
note "peer killed: survivor failed with: $(grep -i -E 'timeout|error' "$LOG/srv" | head -1 | cut -c1-120)"
