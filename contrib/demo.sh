#!/bin/bash
# Usage: contrib/demo.sh [-h|--help]   (as root; after make install)
# The demo: a 2-node emulated cluster with 2 raw-Ethernet rails between the
# nodes (each limited to 1 Gbit/s), then
#   1. hxb-ucp-test: 200 messages of 0..4 MiB each way over UCP, every one
#      verified intact, exactly once, in order;
#   2. ucx_perftest tag_bw with 1 MiB messages over hxb, striped on both rails.
# Everything is torn down afterwards, also on failure. HXB_LIB and HXB_BIN
# name the library and the directory of hxb-ucp-test (default: installed).
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        *) echo "demo.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
TB="$top/contrib/testbed/hxb-testbed"
LIB=${HXB_LIB:-/usr/local/lib/ucx/libuct_hxb.so}
BIN=${HXB_BIN:-/usr/local/bin}
NAME=hxbdemo
trap '"$TB" down --name $NAME >/dev/null 2>&1 || true' EXIT

"$TB" up --name $NAME --grid 2 --rails 2 --rate 1gbit >/dev/null
topo=/run/hxb/$NAME/topo.conf
run() { "$TB" exec --name $NAME "$@"; }
E=(env LD_PRELOAD="$LIB" UCX_HXB_TOPO="$topo" UCX_TLS=hxb,self)
# UCX 1.18's ucx_perftest (Debian 13, built with MPI) goes into MPI mode when
# its stdin is not a terminal unless told -P 0; 1.13's has no -P
PERFTEST=(ucx_perftest)
case $(ucx_perftest -h 2>&1 </dev/null || true) in *"-P <0|1>"*) PERFTEST+=(-P 0) ;; esac

echo "== hxb demo: nodes n0 and n1, 2 rails of 1 Gbit/s, dual rails (bulk frames by UDP, the rest raw Ethernet, EtherType 0x88B5)"
run n0 "${E[@]}" "$BIN/hxb-ucp-test" -p 13337 -n 200 -t 120 >/tmp/hxbdemo.srv.$$ 2>&1 &
srv=$!
run n1 "${E[@]}" "$BIN/hxb-ucp-test" -c 198.18.0.1 -p 13337 -n 200 -t 120
rc=0; wait $srv || rc=$?
cat /tmp/hxbdemo.srv.$$; rm -f /tmp/hxbdemo.srv.$$
[ $rc = 0 ] || { echo "demo: hxb-ucp-test server failed" >&2; exit 1; }

echo "== ucx_perftest tag_bw, 1 MiB messages, over hxb (theoretical: 2 x 125 MB/s = 250 MB/s)"
run n0 timeout 120 "${E[@]}" "${PERFTEST[@]}" -t tag_bw -s 1048576 -n 300 >/dev/null 2>&1 &
srv=$!
# its client connects once: wait until the server listens (bounded)
for _ in $(seq 100); do
    run n0 ss -Hltn "sport = :13337" | grep -q . && break
    sleep 0.1
done
out=$(run n1 timeout 120 "${E[@]}" "${PERFTEST[@]}" 198.18.0.1 -t tag_bw -s 1048576 -n 300 2>&1) ||
    { echo "$out" >&2; echo "demo: ucx_perftest failed" >&2; exit 1; }
wait $srv || { echo "demo: ucx_perftest server failed" >&2; exit 1; }
echo "$out" | awk '/Final:/ {mb = $7 * 1.048576; ok = 1
                            printf "tag_bw: %.1f MB/s (%.1f %% of 250 MB/s)\n", mb, mb / 250 * 100}
                   END { exit !ok }' ||
    { echo "$out" >&2; echo "demo: ucx_perftest printed no result" >&2; exit 1; }
echo "== demo done"
