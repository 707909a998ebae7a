#!/bin/bash
# MPI one-sided communication (windows) over hxb between two testbed nodes:
# hxb-mpi-rma checks fence, PSCW and passive-target epochs, Put, Get,
# Accumulate, atomics and dynamic windows, 0 B to 4 MiB, every value
# verified.
#  - ob1 + btl hxb with osc pt2pt on Open MPI 4.1 (Debian's turns osc pt2pt and
#    ucx off in /etc/openmpi/openmpi-mca-params.conf, and osc rdma needs a
#    BTL with atomics: without --mca osc, MPI_Win_create fails with
#    MPI_ERR_WIN over btl tcp and btl hxb alike); not on 5.0 (below);
#  - pml ucx with UCX_TLS=hxb,self,sm: osc ucx, its own UCP context beside
#    pml ucx's, whose RMA and atomic lanes must be hxb's own put/get and
#    atomics ("rma(hxb/hxb0) amo(hxb/hxb0)"), not active messages, and no
#    shared memory between the nodes (the testbed gives each node its own
#    IPC namespace);
#  - both again under 1 % loss on every rail.
# Each run must move the windows' bytes over the rails: at least 16 MB
# received, summed over every process's rails.
TNAME=t66
. "$(dirname "$0")/lib.sh"
need_mpi hxb-mpi-rma
tb_up --grid 2 --rails 2 --rate 1gbit
COMP_PATH=$(ompi_comp_path)

mpi() {
    local name=$1; shift
    tb_mpirun 180 "$name" "$@"
    grep -q "hxb_mpi_rma: ok" "$LOG/$name" || fail "$name: no verdict"
    hxb_carried "$LOG/$name"
    local bytes=0 v
    for v in $(grep -ao 'hxb stats rail [^ ]*: tx_frames=[0-9]* tx_bytes=[0-9]* rx_frames=[0-9]* rx_bytes=[0-9]*' "$LOG/$name" | grep -o ' rx_bytes=[0-9]*' | cut -d= -f2); do
        bytes=$((bytes + v))
    done
    [ "$bytes" -ge 16000000 ] || fail "$name: the rails carried only $bytes bytes: did the windows' data go another way?"
    note "$name: $(grep -h 'hxb_mpi_rma: ok' "$LOG/$name" | sed 's/hxb_mpi_rma: ok: //'), $((bytes / 1000000)) MB over the rails"
}
ob1() {
    local name=$1 osc=$2; shift 2
    mpi "$name" -np 2 --mca pml ob1 --mca btl hxb,self,vader --mca osc "$osc" \
        --mca mca_base_component_path "$COMP_PATH$top/.libs" \
        --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO" \
        --mca btl_hxb_job_key $KEY --mca btl_hxb_print_stats y "$top/hxb-mpi-rma" "$@"
}
ucx() {
    local name=$1; shift
    local v
    mpi "$name" -np 2 --mca pml ucx --mca osc ucx --mca pml_ucx_tls any --mca pml_ucx_devices any \
        -x LD_PRELOAD="$HXB_LIB" -x UCX_TLS=hxb,self,sm -x UCX_HXB_TOPO="$TOPO" \
        -x UCX_HXB_JOB_KEY=$KEY -x UCX_HXB_PRINT_STATS=y -x UCX_LOG_LEVEL=info \
        "$top/hxb-mpi-rma" "$@"
    # and the paths by copy and the atomics ran
    local copied=0 atomics=0
    for v in $(grep -ao ' put_copied=[0-9]*' "$LOG/$name" | cut -d= -f2); do copied=$((copied + v)); done
    for v in $(grep -ao ' atomics_done=[0-9]*' "$LOG/$name" | cut -d= -f2); do atomics=$((atomics + v)); done
    [ "$copied" -gt 0 ] && [ "$atomics" -gt 0 ] ||
        fail "$name: osc ucx made $copied puts by copy and $atomics atomics over hxb"
    note "$name: $copied puts by copy, $atomics atomics"
    # UCX 1.13: "ep_cfg[N]: rma(hxb/hxb0) amo(...)", 1.18: "cfg#N rma(hxb/hxb0)  amo(...)"
    grep -aqE "rma\(hxb/hxb0\) +amo\(hxb/hxb0\)" "$LOG/$name" ||
        fail "$name: osc ucx's RMA and atomic lanes are not hxb: $(grep -ahoE '(ep_cfg|cfg#).*' "$LOG/$name" | sort -u | tr '\n' ' ')"
}

# Open MPI 5 has no osc pt2pt, and its osc rdma over a BTL without atomics
# (btl hxb) goes through the BTL base's active-message RDMA, which needs the
# sender's endpoint in every received descriptor: btl hxb does not know it
# (UCT's AM handler does not say; not done yet), and osc rdma aborts ("BTL
# is not compatible with active-message RDMA"). There, windows over hxb are
# osc ucx's only.
OB1=1
if [ "$OMPI_MAJOR" -ge 5 ]; then
    OB1=0
    note "ob1 + btl hxb windows: not on Open MPI $OMPI_MAJOR (no osc pt2pt; osc rdma needs AM-RDMA endpoints btl hxb does not give)"
fi
[ $OB1 = 0 ] || ob1 ob1_pt2pt pt2pt
ucx ucx
"$TB" fault --name "$TNAME" --loss 1 > "$LOG/fault" 2>&1 || fail "fault injection"
[ $OB1 = 0 ] || ob1 ob1_pt2pt_loss1 pt2pt
ucx ucx_loss1
[ "$(tb_drops)" -gt 0 ] || fail "1 % loss on every rail, but the testbed dropped nothing"
