#!/bin/bash
# The mini-apps of contrib/bench/hxb-bench-apps check their data: each
# kernel of hxb-bench-apps-mpi (cg, cgar, is, ft, osu), class S, a few
# iterations, 4 ranks on 4 nodes of one line (2 rails, ob1 + btl hxb with
# coll hxb, as HXB_TEST_USER) exits 0 with verified=1, and hxb carried the
# messages. With -X, rank 1 flips a byte of the first buffer it receives
# before checking it: every kernel must then fail with its mismatch
# message (so the benchmark's check can fail). No timings are asserted.
TNAME=h67
. "$(dirname "$0")/lib.sh"
[ -z "${HXB_TRACE:-}" ] || set -x
need_mpi hxb-bench-apps-mpi
tb_up --grid 4 --rails 2

COMP_PATH=$(ompi_comp_path)
# shellcheck disable=SC2054 # commas inside MCA values
OB1=(--mca mca_base_component_path "$COMP_PATH$top/.libs" --mca pml ob1 --mca btl hxb,self,vader
     --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO"
     --mca btl_hxb_job_key "$KEY" --mca btl_hxb_print_stats y)
APP=("$top/hxb-bench-apps-mpi" -c S -n 2)

for k in cg cgar is ft osu; do
    extra=()
    [ "$k" != osu ] || extra=(-s 65536)
    tb_mpirun 60 "$k" -np 4 "${OB1[@]}" "${APP[@]}" -k "$k" "${extra[@]}"
    n=$(grep -ac "^hxb_bench_apps: kernel=$k .* verified=1$" "$LOG/$k" || true)
    want=1
    [ "$k" != osu ] || want=2            # osu: a bandwidth and a latency line
    [ "$n" = "$want" ] || fail "$k: $n lines with verified=1, $want expected: $(grep -a -m2 'hxb_bench_apps' "$LOG/$k")"
    hxb_carried "$LOG/$k"
    note "$k: $(grep -a -m1 "^hxb_bench_apps: kernel=$k" "$LOG/$k" | grep -o 'np=.*secs=[0-9.]*')"
done

# the corrupted runs must fail, naming the mismatch (tb_mpirun fails the
# test on a failed mpirun: these run without it, bounded the same way)
for k in cg cgar is ft osu; do
    rc=0
    # shellcheck disable=SC2046
    on_user n0 env $(ompi_root_env) timeout 60 mpirun \
        --mca plm_rsh_agent "$top/contrib/testbed/hxb-rsh" \
        --hostfile "/run/hxb/$TNAME/hostfile" --map-by node --bind-to none \
        --mca mpi_yield_when_idle 1 --mca oob_tcp_if_include mgmt \
        --mca btl_tcp_if_include mgmt -x UCX_WARN_UNUSED_ENV_VARS=n \
        -np 4 "${OB1[@]}" "${APP[@]}" -k "$k" -s 65536 -X > "$LOG/$k-X" 2>&1 || rc=$?
    tr -d '\000' < "$LOG/$k-X" > "$LOG/$k-X.t" && mv "$LOG/$k-X.t" "$LOG/$k-X"
    [ "$rc" != 124 ] || fail "$k -X: mpirun timed out (60 s) instead of aborting"
    [ "$rc" != 0 ] || fail "$k -X: a corrupted buffer, but the run exited 0"
    grep -aq "hxb_bench_apps: kernel=$k rank 1: data mismatch" "$LOG/$k-X" ||
        fail "$k -X: exit $rc without the mismatch message: $(grep -a -m2 -E 'hxb_bench_apps|rror' "$LOG/$k-X")"
    ! grep -aq "verified=1" "$LOG/$k-X" || fail "$k -X: a verified=1 line despite the corruption"
    note "$k -X: exit $rc, $(grep -ao -m1 'data mismatch from [^(]*' "$LOG/$k-X")"
done
echo "PASS t67_mpi_apps"
