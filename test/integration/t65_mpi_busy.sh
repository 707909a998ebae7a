#!/bin/bash
# A rank that computes for longer than the peer timeout, without calling
# MPI, while its peer sends to it (and after posting sends of its own) is
# alive: it must be waited for, not failed (PROTOCOL.md 8.7). hxb-mpi-p2p -c
# makes each rank of the pair compute for 3 s in turn, with the peer
# timeout at 1 s; every message (0 B to 4 MiB, eager and rendezvous) is
# verified. ob1 + btl hxb and pml ucx. The idle tick's counters show that
# the busy path was taken (busy_sent on the computing side, busy_rcvd on
# the waiting one) and that no peer was failed.
TNAME=t65
. "$(dirname "$0")/lib.sh"
need_mpi hxb-mpi-p2p
tb_up --grid 2 --rails 2 --rate 1gbit
COMP_PATH=$(ompi_comp_path)
BUSY=3

mpi() {
    local name=$1; shift
    tb_mpirun 120 "$name" "$@"
    grep -q "hxb_mpi_p2p: ok" "$LOG/$name" || fail "$name: no verdict"
    local failed=0 sent=0 rcvd=0 v
    for v in $(grep -o ' peers_failed=[0-9]*' "$LOG/$name" | cut -d= -f2); do failed=$((failed + v)); done
    for v in $(grep -o ' busy_sent=[0-9]*' "$LOG/$name" | cut -d= -f2); do sent=$((sent + v)); done
    for v in $(grep -o ' busy_rcvd=[0-9]*' "$LOG/$name" | cut -d= -f2); do rcvd=$((rcvd + v)); done
    [ "$(grep -ao 'hxb stats node' "$LOG/$name" | grep -c .)" -ge 2 ] || fail "$name: no hxb stats from both ranks"
    [ "$failed" = 0 ] || fail "$name: $failed peers failed"
    # each rank computed 2 x 3 s with a 1 s timeout: ACKs every 250 ms
    [ "$sent" -ge 8 ] && [ "$rcvd" -ge 8 ] ||
        fail "$name: the idle tick did not tell the peer (busy_sent=$sent busy_rcvd=$rcvd)"
    note "$name: $(grep -h 'hxb_mpi_p2p: ok' "$LOG/$name" | sed 's/hxb_mpi_p2p: ok: //'), busy_sent=$sent busy_rcvd=$rcvd"
}

mpi ob1 -np 2 --mca pml ob1 --mca btl hxb,self,vader \
    --mca mca_base_component_path "$COMP_PATH$top/.libs" \
    --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO" \
    --mca btl_hxb_job_key $KEY --mca btl_hxb_print_stats y \
    --mca btl_hxb_peer_timeout 1s "$top/hxb-mpi-p2p" -c $BUSY
mpi ucx -np 2 --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any \
    -x LD_PRELOAD="$HXB_LIB" -x UCX_TLS=hxb,self,sm -x UCX_HXB_TOPO="$TOPO" \
    -x UCX_HXB_JOB_KEY=$KEY -x UCX_HXB_PRINT_STATS=y -x UCX_HXB_PEER_TIMEOUT=1s \
    "$top/hxb-mpi-p2p" -c $BUSY
