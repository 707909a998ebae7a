#!/bin/bash
# The benchmarks' global clock (contrib/bench/hxb_gclock.c) on 4 nodes whose
# CLOCK_MONOTONIC run seconds apart (hxb-testbed up --clock-offsets: a time
# namespace per node, different offsets), MPI over ob1 + btl hxb as an
# ordinary user:
#  - every process the testbed starts on a node sees that node's offset:
#    root's and the user's (exec), and mpirun's ranks (through hxb-rsh);
#  - hxb-bench-clock-mpi recovers each node's offset against n0, first sync
#    and resynced, within 100 us of the injected one (a check of
#    correctness, not of quality: doc/RESULTS.md has the measured error),
#    and its fresh checks agree with the model's prediction as closely;
#  - hxb-bench-coll-mpi -C both runs calls started by the global clock
#    beside barrier-started ones and reports both.
TNAME=r82
. "$(dirname "$0")/lib.sh"
[ -z "${HXB_TRACE:-}" ] || set -x
need_mpi hxb-bench-clock-mpi
[ -x "$top/hxb-bench-coll-mpi" ] || { echo "  hxb-bench-coll-mpi not built"; exit 77; }
# seconds apart, with sub-second parts, one negative
OFFS="n0=+7.250000125,n1=+3.000200000,n2=-1.5,n3=+12.987654321"
tb_up --grid 4 --rails 1 --clock-offsets "$OFFS"
grep -q '^n2 -1.500000000$' "/run/hxb/$TNAME/clock" || fail "testbed's clock file: $(tr '\n' ' ' < "/run/hxb/$TNAME/clock")"

# the namespaces: a node's CLOCK_MONOTONIC minus the host's is its offset,
# for root and for the job user alike (the host's, read before and after
# the node's, brackets it)
mono() { python3 -c 'import time; print("%.6f" % time.monotonic())'; }
for n in n1 n2; do
    for who in on on_user; do
        a=$(mono); b=$($who $n python3 -c 'import time; print("%.6f" % time.monotonic())'); c=$(mono)
        want=$(awk -v n=$n '$1 == n { print $2 }' "/run/hxb/$TNAME/clock")
        awk -v a="$a" -v b="$b" -v c="$c" -v w="$want" 'BEGIN { exit !(b - c <= w + 0.001 && b - a >= w - 0.001) }' ||
            fail "$who $n: CLOCK_MONOTONIC $b, host's $a..$c: not offset by $want s"
    done
done
note "exec as root and as $HXB_TEST_USER: each node's CLOCK_MONOTONIC is offset as injected"

COMP_PATH=$(ompi_comp_path)
ob1() {
    local name=$1 secs=$2; shift 2
    tb_mpirun "$secs" "$name" -np 4 --mca pml ob1 --mca btl hxb,self,vader \
        --mca mca_base_component_path "$COMP_PATH$top/.libs" \
        --mca btl_hxb_uct_module "$HXB_LIB" --mca btl_hxb_topo "$TOPO" \
        --mca btl_hxb_job_key $KEY --mca btl_hxb_print_stats y "$@"
}
# a sync with two rounds 0.5 s apart, checks 1 s apart for 2 s, resynced at
# each (on a busy host one check may take over a second: then one check)
ob1 clock 90 "$top/hxb-bench-clock-mpi" -d 2 -i 1 -s 0.5 -p 100
grep -q "hxb_bench_clock: ok" "$LOG/clock" || fail "clock: no verdict"
hxb_carried "$LOG/clock"
# each rank's node (through hxb-rsh: the ranks of n1..n3) and offsets
awk -v clockf="/run/hxb/$TNAME/clock" '
    BEGIN { while ((getline l < clockf) > 0) { split(l, a, " "); inj[a[1]] = a[2] } }
    function abs(x) { return x < 0 ? -x : x }
    function bad(m) { print m; err = 1 }
    $1 == "node" { node[$2] = $3; nodes++ }
    $1 == "sync" || $1 == "final" { truth = inj[node[$2]] - inj[node[0]]; seen[$1]++
        if (abs($3 - truth) > 100e-6) bad($1 " rank " $2 " (" node[$2] "): offset " $3 " s, injected " truth " s") }
    $1 == "check" && $4 > 0 { truth = inj[node[$4]] - inj[node[0]]; checks++
        if (abs($6 - truth) > 100e-6) bad("check " $2 " rank " $4 ": predicted " $6 " s, injected " truth " s")
        if (abs($5 - truth) > 100e-6) bad("check " $2 " rank " $4 ": measured " $5 " s, injected " truth " s")
        if (abs($7) > 100) bad("check " $2 " rank " $4 ": measured - predicted " $7 " us") }
    END { if (nodes != 4 || seen["sync"] != 4 || seen["final"] != 4 || checks < 3 || checks % 3) bad("incomplete output: " nodes " nodes, " seen["sync"] " sync, " checks " checks")
          for (r = 0; r < 4; r++) if (node[r] == "" || (node[r] in used)) bad("rank " r " on node \"" node[r] "\""); else used[node[r]] = 1
          exit err }' "$LOG/clock" || fail "clock: offsets not recovered (above)"
note "clock: 4 nodes' offsets recovered (first sync and resynced, within 100 us), max |error| $(
    awk -v clockf="/run/hxb/$TNAME/clock" 'BEGIN { while ((getline l < clockf) > 0) { split(l, a, " "); inj[a[1]] = a[2] } }
        $1 == "node" { node[$2] = $3 } $1 == "final" { d = ($3 - (inj[node[$2]] - inj[node[0]])) * 1e6; d = d < 0 ? -d : d; if (d > m) m = d }
        END { printf "%.2f us", m }' "$LOG/clock")"

# collectives started by the global clock, beside barrier-started ones
ob1 coll 120 "$top/hxb-bench-coll-mpi" -C both -c reduce -n 8 -m 64
awk '$1 == "clock" { n[$5]++; if ($6 > 0) v[$5]++ }
     END { exit !(n["global"] == 8 && n["barrier"] == 8 && v["global"] >= 4 && v["barrier"] == 8) }' "$LOG/coll" ||
    fail "coll -C both: expected clock lines for 4 sizes x 2 labels, each way, with calls counted: $(grep -c '^clock' "$LOG/coll") lines"
grep -q '^bench reduce 8 hxb@global ' "$LOG/coll" || fail "coll -C both: no bench line of the global-clock calls"
note "coll -C both: MPI_Reduce 8..64 B, barrier- and clock-started, $(awk '$1 == "clock" && $5 == "global" { s += $6 } END { print s }' "$LOG/coll") clock-started calls counted"
