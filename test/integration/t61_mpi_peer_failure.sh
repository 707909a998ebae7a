#!/bin/bash
# A rank stops answering in the middle of a stream (SIGSTOP: its node is
# still up, so only the transport can notice): the sender's btl hxb reports
# the peer failed after btl_hxb_peer_timeout, and the job aborts instead
# of hanging.
TNAME=b61
. "$(dirname "$0")/lib.sh"
need_mpi hxb-mpi-p2p
tb_up --grid 2 --rails 2

COMP_PATH=$(ompi_comp_path)

# shellcheck disable=SC2046
on_user n0 env $(ompi_root_env) \
    timeout 60 mpirun --mca plm_rsh_agent "$top/contrib/testbed/hxb-rsh" \
    --hostfile "/run/hxb/$TNAME/hostfile" --map-by node --bind-to none \
    --mca mpi_yield_when_idle 1 --mca oob_tcp_if_include mgmt \
    -np 2 --mca pml ob1 --mca btl hxb,self,vader \
    --mca mca_base_component_path "$COMP_PATH$top/.libs" \
    --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO" \
    --mca btl_hxb_peer_timeout 2s \
    "$top/hxb-mpi-p2p" -s 40 > "$LOG/mpirun" 2>&1 &
job=$!

# wait (bounded) for the stream, then freeze rank 1: the process on n1
for _ in $(seq 100); do grep -qs "streaming" "$LOG/mpirun" && break; sleep 0.2; done
grep -qs "streaming" "$LOG/mpirun" || fail "the stream did not start"
sleep 1
victim=
for p in $(ip netns pids "$TNAME-n1"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = hxb-mpi-p2p ] && victim=$p
done
[ -n "$victim" ] || fail "rank 1 not found on n1"
kill -STOP "$victim"

# the failure is due 2 s after the freeze: rank 0's hxb counts it
# (peers_failed, read from outside with hxb-stat) within 30 s, or rank 0's
# state is kept for whoever reads the failure. Then rank 1 may run again:
# the abort has to end it, and Open MPI took up to a minute to end a
# stopped process (one CI run hung to the timeout with the failure counted
# by hand runs 2.0 s after the freeze)
r0=
for p in $(ip netns pids "$TNAME-n0"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = hxb-mpi-p2p ] && r0=$p
done
[ -n "$r0" ] || fail "rank 0 not found on n0"
counted=0
for _ in $(seq 300); do
    kill -0 $job 2>/dev/null || break
    if "$HXB_BIN/hxb-stat" --dir "/proc/$r0/root/dev/shm" "$r0" 2>/dev/null | grep -q "peers_failed=1"; then
        counted=1
        break
    fi
    sleep 0.1
done
if [ $counted = 0 ] && kill -0 $job 2>/dev/null; then
    { "$HXB_BIN/hxb-stat" --dir "/proc/$r0/root/dev/shm" "$r0"
      "$HXB_BIN/hxb-stat" --dump --dir "/proc/$r0/root/dev/shm" "$r0"; } > "$LOG/rank0-state" 2>&1 || true
    kill -CONT "$victim" 2>/dev/null || true
    kill $job 2>/dev/null || true
    fail "rank 0 did not count rank 1 failed 30 s after it froze (its hxb state: $LOG/rank0-state)"
fi
kill -CONT "$victim" 2>/dev/null || true
set +e
wait $job
rc=$?
set -e
[ $rc -ne 0 ] || fail "mpirun claimed success although rank 1 was frozen"
[ $rc -ne 124 ] || fail "the job hung until the test's timeout"
grep -q "btl:hxb: peer .* failed" "$LOG/mpirun" || fail "no peer failure reported"
note "frozen rank 1: $(grep -m1 'btl:hxb: peer' "$LOG/mpirun" | sed 's/^\[[^]]*\] //'), mpirun exit $rc"
