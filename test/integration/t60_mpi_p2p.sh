#!/bin/bash
# Unmodified MPI programs over hxb between two testbed nodes (2 rails; UDP
# as the jobs run as an ordinary user, HXB_TEST_USER; mpirun, Open MPI's
# daemons and the ranks run as that user with no capability, checked on
# the 4-rank run):
# hxb-mpi-p2p checks every point-to-point path (0 B to 64 MiB across the
# eager/rendezvous boundaries, any-source, probe, non-blocking, derived
# datatypes, many outstanding requests; every message verified)
#  - with ob1 + btl hxb, for each of ob1's large-message protocols (RGET,
#    RDMA-put pipeline, send-only), and with 2 ranks per node (vader + hxb);
#  - with pml ucx and UCX_TLS=hxb,self,sm;
#  - both again under 1 % loss on every rail;
#  - at MTU 1500, ob1 + btl hxb with the BTL's own choice of protocol for
#    large messages (below jumbo frames: sends, or puts where the job sets
#    mpi_yield_when_idle; every rank alike on oversubscribed nodes, where
#    Open MPI yields by itself) and with btl_hxb_flags set (send,put: the
#    user's choice stands), each stating it (verbose 5).
TNAME=b60
. "$(dirname "$0")/lib.sh"
[ -z "${HXB_TRACE:-}" ] || set -x
need_mpi hxb-mpi-p2p
tb_up --grid 2 --rails 2

# Open MPI's own component path (its existing directories: Open MPI 4.1
# stops scanning at a missing one, e.g. ~/.openmpi/components), plus the
# BTL in the build tree
COMP_PATH=$(ompi_comp_path)
mpi() {
    local name=$1; shift
    tb_mpirun 300 "$name" "$@"
    grep -q "hxb_mpi_p2p: ok" "$LOG/$name" || fail "$name: no verdict"
    # the transport's counters prove hxb carried the messages
    hxb_carried "$LOG/$name"
    note "$name: $(grep -h 'hxb_mpi_p2p: ok' "$LOG/$name" | sed 's/hxb_mpi_p2p: ok: //')"
}
# ob1 + btl hxb: settings go through btl_hxb_* MCA parameters, and the BTL
# loads the transport itself (no LD_PRELOAD)
# ob1 NAME NP FLAGS [hxb-mpi-p2p args]: FLAGS "default" leaves btl_hxb_flags
# unset (the BTL chooses); the BTL says what it chose (verbose 5).
# OB1_OVERSUB=1: more ranks than a node has cores (--oversubscribe);
# OB1_WRAP=PROG: each rank runs PROG hxb-mpi-p2p ARGS
ob1() {
    local name=$1 np=$2 flags=$3; shift 3
    local set_flags=()
    [ "$flags" = default ] || set_flags=(--mca btl_hxb_flags "$flags")
    mpi "$name" -np "$np" ${OB1_OVERSUB:+--oversubscribe} --mca pml ob1 --mca btl hxb,self,vader \
        --mca mca_base_component_path "$COMP_PATH$top/.libs" \
        --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO" \
        --mca btl_hxb_job_key $KEY --mca btl_hxb_print_stats y --mca btl_hxb_verbose 5 \
        "${set_flags[@]}" ${OB1_WRAP:+"$OB1_WRAP"} "$top/hxb-mpi-p2p" "$@"
}
ucx() {
    local name=$1; shift
    mpi "$name" -np 2 --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any \
        -x LD_PRELOAD="$HXB_LIB" -x UCX_TLS=hxb,self,sm -x UCX_HXB_TOPO="$TOPO" \
        -x UCX_HXB_JOB_KEY=$KEY -x UCX_HXB_PRINT_STATS=y "$top/hxb-mpi-p2p" "$@"
}

ob1 ob1_rget        2 send,put,get
ob1 ob1_put         2 send,put -m 16777216
ob1 ob1_send        2 send     -m 16777216
CHECK_RANKS="hxb-mpi-p2p 4" ob1 ob1_4ranks 4 send,put,get -m 16777216
ucx ucx
"$TB" fault --name "$TNAME" --loss 1 > "$LOG/fault" 2>&1 || fail "fault injection"
ob1 ob1_rget_loss1  2 send,put,get
ob1 ob1_put_loss1   2 send,put -m 16777216
ucx ucx_loss1
for f in ob1_rget_loss1 ucx_loss1; do
    r=0
    for v in $(grep -o ' retransmits=[0-9]*' "$LOG/$f" | cut -d= -f2); do r=$((r + v)); done
    [ "$r" -gt 0 ] || fail "$f: 1 % loss but no retransmission: was loss injected?"
done
[ "$(tb_drops)" -gt 0 ] || fail "1 % loss on every rail, but the testbed dropped nothing"

# MTU 1500: the BTL leaves puts out (its flags not set) while ranks have
# their cores to themselves, puts where they yield when idle (they share
# cores: fewer copies count more than 1 % of the wire), and does as told
"$TB" down --name "$TNAME" >/dev/null 2>&1
tb_up --grid 2 --rails 2 --mtu 1500
HXB_MPI_YIELD=0 ob1 ob1_1500 2 default -m 16777216
grep -q 'large messages by sends (frames of' "$LOG/ob1_1500" ||
    fail "MTU 1500: the BTL did not choose sends: $(grep -a -m1 'btl:hxb: open' "$LOG/ob1_1500")"
ob1 ob1_1500_yield 2 default -m 16777216
grep -q 'large messages by puts' "$LOG/ob1_1500_yield" ||
    fail "MTU 1500, mpi_yield_when_idle 1: the BTL did not choose puts: $(grep -a -m1 'btl:hxb: open' "$LOG/ob1_1500_yield")"
# Open MPI itself makes ranks yield where their node is oversubscribed,
# which can differ between nodes; ranks whose BTLs disagree on puts crash
# ob1 (a put request to a rank without them): only the job's setting counts
HXB_MPI_YIELD='' OB1_OVERSUB=1 ob1 ob1_1500_oversub 6 default -m 1048576
[ "$(grep -ac 'large messages by sends' "$LOG/ob1_1500_oversub")" = 6 ] ||
    fail "MTU 1500, 3 ranks per node, mpi_yield_when_idle not set: not every rank chose sends: $(grep -a 'btl:hxb: open' "$LOG/ob1_1500_oversub" | cut -c1-120)"
ob1 ob1_1500_put 2 send,put -m 16777216
grep -q 'large messages by puts' "$LOG/ob1_1500_put" ||
    fail "MTU 1500, btl_hxb_flags send,put: the BTL overrode it: $(grep -a -m1 'btl:hxb: open' "$LOG/ob1_1500_put")"

# Nodes whose frames differ (here rank 1's capped by UCX_HXB_FRAME_MAX, as
# an extra rail at MTU 1500 would): the frames decide for each pair, by the
# smaller, so both ends send (a rank with puts asking one without for a put
# crashed ob1); every message verified both ways
"$TB" down --name "$TNAME" >/dev/null 2>&1
tb_up --grid 2 --rails 2
chmod 711 "$LOG"
printf '#!/bin/sh\n[ "$OMPI_COMM_WORLD_RANK" != 1 ] || export UCX_HXB_FRAME_MAX=1500\nexec "$@"\n' > "$LOG/frame1500"
chmod 755 "$LOG/frame1500"
HXB_MPI_YIELD=0 OB1_WRAP="$LOG/frame1500" ob1 ob1_frames 2 default -m 16777216
grep -q 'large messages by puts (frames of' "$LOG/ob1_frames" &&
    grep -q 'large messages by sends (frames of' "$LOG/ob1_frames" ||
    fail "frames capped on rank 1: the ranks' own choices were not puts and sends: $(grep -a 'btl:hxb: open' "$LOG/ob1_frames" | cut -c1-160)"
grep -q 'add_procs: 1 peers, frames of [0-9]* bytes at the least: large messages to them by sends' "$LOG/ob1_frames" ||
    fail "frames capped on rank 1: rank 0 did not take the smaller frames for the pair: $(grep -a 'btl:hxb:' "$LOG/ob1_frames" | cut -c1-160)"
