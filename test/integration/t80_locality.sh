#!/bin/bash
# NIC locality (uct_hxb/hxb_locality.c) in real processes on the testbed.
# 1. The testbed's rails are veths, with no PCI device: every rail's class
#    is "unknown" and the rails keep their order (hxb-topo --locality and
#    the iface's UCX_LOG_LEVEL=info line say so); messages verify.
# 2. The same nodes seen through an hwloc XML topology (HWLOC_XMLFILE,
#    test/unit/data/locality-2pkg.xml with its NICs renamed x1 and x0: x1
#    hangs off package 0, x0 off package 1), the processes bound to CPU 0
#    (package 0): x1 is near and goes first, x0 is far; messages still
#    verify, and both rails carry frames (a far rail still stripes).
# The job processes run as the ordinary user (HXB_TEST_USER).
TNAME=t80loc
. "$(dirname "$0")/lib.sh"
grep -q '^#define HXB_HAVE_HWLOC 1' "$top/hxb_config.h" 2>/dev/null ||
    { echo "SKIP: built without hwloc (libhwloc-dev)"; exit 77; }
XML=$(mktemp /tmp/hxb-t80.XXXXXX.xml)
trap 'rc=$?; rm -f "$XML"; (exit $rc); cleanup' EXIT
sed -e 's/name="eth1"/name="x1"/' -e 's/name="eth0"/name="x0"/' \
    "$top/test/unit/data/locality-2pkg.xml" > "$XML"
chmod 644 "$XML"
tb_up --grid 2 --rails 2

out=$(on_user n0 "$HXB_BIN/hxb-topo" --locality x0 x1) || fail "hxb-topo --locality: $out"
echo "$out" | grep -q '^rail order: x0 unknown, x1 unknown$' ||
    fail "veth rails: hxb-topo --locality printed: $out"
note "hxb-topo --locality on n0: $(echo "$out" | tail -1)"

# pair NAME PREFIX...: hxb-ucp-test server on n0, client on n1, each run
# through PREFIX (env settings, taskset); both must verify every message
pair() {
    local name=$1 port=$((20000 + RANDOM % 20000)); shift
    # shellcheck disable=SC2046
    on_user n0 $(hxb_env UCX_LOG_LEVEL=info "$@") "$HXB_BIN/hxb-ucp-test" -p $port \
        -n 200 -m 1048576 > "$LOG/$name.srv" 2>&1 &
    local srv=$!
    # shellcheck disable=SC2046
    on_user n1 $(hxb_env UCX_LOG_LEVEL=info "$@") "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port \
        -n 200 -m 1048576 > "$LOG/$name.cli" 2>&1 ||
        fail "$name: client: $(grep -h -m1 -E 'FAIL|rror' "$LOG/$name.cli")"
    wait $srv || fail "$name: server: $(grep -h -m1 -E 'FAIL|rror' "$LOG/$name.srv")"
    grep -q "hxb_ucp_test: ok" "$LOG/$name.srv" || fail "$name: server did not verify"
}
# the iface's locality line of a log
loc_line() { grep -a -m1 -o 'hxb: rails by locality to cpus .*' "$1"; }

pair veth
l=$(loc_line "$LOG/veth.srv") || fail "veth: no locality line at UCX_LOG_LEVEL=info"
[[ $l =~ ^hxb:\ rails\ by\ locality\ to\ cpus\ [0-9].*:\ x0\ unknown,\ x1\ unknown$ ]] ||
    fail "veth: expected x0, x1 unknown and not reordered, got: $l"
note "veth: $l"

pair xml HWLOC_XMLFILE="$XML" taskset -c 0
for side in srv cli; do
    l=$(loc_line "$LOG/xml.$side") || fail "xml ($side): no locality line"
    [ "$l" = "hxb: rails by locality to cpus 0: x1 numa 0000:3b:00.0, x0 other 0000:86:00.0 (reordered: near ones first)" ] ||
        fail "xml ($side): expected x1 (numa) before x0 (other), got: $l"
done
note "xml topology, bound to CPU 0: $l"
# both rails carried frames (the far one too)
for r in x0 x1; do
    tx=$(grep -a "^hxb stats rail $r:" "$LOG/xml.cli" | grep -o ' tx_frames=[0-9]*' | cut -d= -f2 | head -1)
    [ "${tx:-0}" -gt 0 ] || fail "xml: rail $r sent no frames (${tx:-no stats line})"
    note "xml: rail $r tx_frames=$tx"
done
