#!/bin/bash
# Real UCX clients over hxb between two testbed nodes (2 rails; UDP, as
# the jobs run as an ordinary user, HXB_TEST_USER; raw and UDP as root):
# ucx_perftest UCT tests (am_lat, am_bw bcopy/zcopy, put_lat short/bcopy,
# put_bw short/bcopy/zcopy, get bcopy/zcopy, fadd, cswap, add_mr) with -x hxb and UCP tests (tag_lat, tag_bw
# eager and rendezvous, stream_bw, ucp_put_lat, ucp_put_bw, ucp_get,
# ucp_fadd, ucp_cswap) with UCX_TLS=hxb,self; UCP's RMA and atomics must run
# on hxb's own put/get and atomics ("rma" and "amo" lanes), not emulated by
# active messages. Each must complete and report its figures. Then UCP
# with peer error handling must still use the GET rendezvous (verified data).
# The job processes run as the user with no capability (checked on the
# perftest servers and hxb-ucp-test), and the user's way onto other nodes,
# hxb-rsh through sudo, gives the user's identity there, not root's.
TNAME=t10
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2

if [ "$HXB_TEST_USER" != root ]; then
    u=$(id -u "$HXB_TEST_USER")
    # shellcheck disable=SC2016  # expanded on n1
    r=$(on_user n0 "$top/contrib/testbed/hxb-rsh" n1 'echo $(id -u) $(hostname) $(grep CapEff /proc/self/status | cut -f2)' 2>&1) ||
        fail "hxb-rsh as $HXB_TEST_USER: $r"
    [ "$r" = "$u n1 0000000000000000" ] || fail "hxb-rsh as $HXB_TEST_USER ran as '$r', not as uid $u on n1 without capabilities"
    ! on_user n0 sudo -n true 2>/dev/null || fail "$HXB_TEST_USER may run anything as root with sudo"
    # sudo 1.9.13 (Debian 12) also accepts hxb-rsh under another path of the
    # same file (a link of the same name): that must not give root either;
    # sudo 1.9.16 (Debian 13) refuses the link outright
    # shellcheck disable=SC2016  # expanded by the user's shell on n0
    r=$(on_user n0 sh -c 'd=$(mktemp -d) && ln -s "$1" "$d/hxb-rsh" && sudo -n "$d/hxb-rsh" n1 id -u; rm -rf "$d"' sh \
        "$top/contrib/testbed/hxb-rsh" 2>&1) || true
    case $r in
        "$u") ;;
        "sudo: a password is required") note "sudo refuses hxb-rsh through a link of $HXB_TEST_USER's" ;;
        *) fail "hxb-rsh through a link of $HXB_TEST_USER's ran as '$r', not as uid $u" ;;
    esac
    note "hxb-rsh n1 as $HXB_TEST_USER: uid $u on n1, no capabilities; sudo allows nothing else"
fi

perf() {
    local name=$1; shift
    local port=$((20000 + RANDOM % 20000))
    # shellcheck disable=SC2046
    on_user n0 timeout 60 $(hxb_env $EXTRA_ENV) $PERFTEST -p $port "$@" > "$LOG/$name.srv" 2>&1 &
    local srv=$!
    wait_listen n0 $port
    [ -n "$checked" ] || { assert_unprivileged ucx_perftest 1 $srv; checked=1; }
    # shellcheck disable=SC2046
    on_user n1 timeout 60 $(hxb_env $EXTRA_ENV) $PERFTEST 198.18.0.1 -p $port "$@" > "$LOG/$name.cli" 2>&1 ||
        fail "$name: $(grep -h -i error "$LOG/$name.cli" "$LOG/$name.srv" | head -2)"
    wait $srv || fail "$name: server failed"
    grep -q "^Final:" "$LOG/$name.cli" || fail "$name: no result"
    note "$name: $(grep '^Final:' "$LOG/$name.cli" | awk '{printf "lat %s us, %s MB/s", $4, $7}')"
}
checked=
perf am_lat       -t am_lat -x hxb -d hxb0 -n 20000
perf am_bw_bcopy  -t am_bw -x hxb -d hxb0 -D bcopy -s 60000 -n 5000
perf am_bw_zcopy  -t am_bw -x hxb -d hxb0 -D zcopy -s 60000 -n 5000
perf put_lat_short -t put_lat -x hxb -d hxb0 -D short -s 8 -n 20000
perf put_lat_bcopy -t put_lat -x hxb -d hxb0 -D bcopy -s 8192 -n 5000
# put_bw's last put sets a sentinel in the byte every put writes, and its
# receiver waits for it: it relies on puts landing in order. hxb places
# one-frame puts in order (HXB_F_ORDERED); 1 MiB puts are 118 frames apart
# (DESIGN.md, Known limits).
perf put_bw_short -t put_bw -x hxb -d hxb0 -D short -s 8 -n 200000
perf put_bw_bcopy -t put_bw -x hxb -d hxb0 -D bcopy -s 4096 -n 50000
perf put_bw_zc8   -t put_bw -x hxb -d hxb0 -D zcopy -s 8 -n 50000
perf put_bw       -t put_bw -x hxb -d hxb0 -D zcopy -s 1048576 -n 500
perf get_bcopy    -t get -x hxb -d hxb0 -D bcopy -s 8192 -n 20000
perf get_zcopy    -t get -x hxb -d hxb0 -D zcopy -s 1048576 -n 500
perf tag_lat      -t tag_lat -n 20000
perf tag_bw_64k   -t tag_bw -s 65536 -n 2000
perf tag_bw_4m    -t tag_bw -s 4194304 -n 100
perf stream_bw    -t stream_bw -s 1048576 -n 300
perf ucp_put_bw   -t ucp_put_bw -s 1048576 -n 300
EXTRA_ENV=UCX_LOG_LEVEL=info perf ucp_put_lat -t ucp_put_lat -n 20000
grep -q "rma(hxb/hxb0)" "$LOG/ucp_put_lat.cli" ||
    fail "ucp_put_lat: UCP did not put its RMA lane on hxb: $(grep -h -o 'ep_cfg.*' "$LOG/ucp_put_lat.cli" | tr '\n' ' ')"
perf ucp_get      -t ucp_get -s 8192 -n 20000
# atomics: UCT's (fetch-add, compare-and-swap, posted add) and UCP's, which
# must use hxb's own atomics, not active messages
perf fadd         -t fadd -x hxb -d hxb0 -n 20000
perf cswap        -t cswap -x hxb -d hxb0 -n 20000
perf add_mr       -t add_mr -x hxb -d hxb0 -n 100000
perf ucp_fadd     -t ucp_fadd -n 20000
# emulated, each of the 20000 would be an active message to the server
[ "$(stat "$LOG/ucp_fadd.srv" am_delivered)" -lt 1000 ] ||
    fail "ucp_fadd: UCP emulated its atomics with active messages ($(stat "$LOG/ucp_fadd.srv" am_delivered) AMs)"
perf ucp_cswap    -t ucp_cswap -n 20000

# UCP with peer error handling (hxb-ucp-test's default) keeps the zero-copy
# GET rendezvous: it needs an md that can invalidate memory, else UCP 1.13
# moves rendezvous data as AM fragments (16 or more AMs per 1 MiB message
# instead of a few control AMs). UCX_RNDV_THRESH makes 1 MiB a rendezvous
# size whatever UCP estimates for these unlimited rails.
n=200
CHECK_UNPRIV=1 EXTRA_ENV=UCX_RNDV_THRESH=65536 ucp_pair rndv -f -m 1048576 -w 8 -n $n -t 60
grep -q "ok: $n messages sent, $n received and verified" "$LOG/rndv.cli" ||
    fail "rndv with peer error handling: not every message verified"
ams=$(stat "$LOG/rndv.cli" am_delivered)
[ -n "$ams" ] || fail "rndv with peer error handling: no hxb stats"
[ "$ams" -lt $((5 * n)) ] ||
    fail "rndv with peer error handling: $ams AMs for $n messages of 1 MiB: the data went as AMs, not by GET"
note "rndv with peer error handling: $ams AMs delivered (GET rendezvous)"

# UCP's zero-copy eager AMs (forced: UCP 1.13 picks bcopy for rails slower
# than memcpy) fill whole frames, as its bcopy AMs do: the interface's
# am.max_zcopy is hxb's whole-frame AM size. Half-empty last frames per AM
# (max_zcopy = the largest AM, as before) made the sender's data frames
# average 91 % of a full one at MTU 9000 and cost CPU-bound runs a quarter
# of their speed at MTU 1500 (tag_bw 1 MiB, rails unlimited, pinned: 2021-2086
# against 2773-2880 MB/s).
n=100
EXTRA_ENV="UCX_ZCOPY_THRESH=16384 UCX_RNDV_THRESH=inf" ucp_pair zcopy_eager -f -q -o -m 1048576 -w 8 -n $n -t 60
mtu=$(on n1 cat /sys/class/net/x0/mtu)
fill=$(grep -a '^hxb stats rail ' "$LOG/zcopy_eager.cli" |
       awk -v m="$mtu" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
            END { if (v["tx_frames"]) printf "%.0f", 100 * v["tx_bytes"] / v["tx_frames"] / (m - 28) }')
[ -n "$fill" ] || fail "zcopy_eager: no rail stats from the client"
[ "$fill" -ge 97 ] || fail "zcopy_eager: the client's frames are $fill % full on average (whole-frame AMs: 99 %)"
note "zcopy_eager: the client's frames average $fill % of a full UDP payload"

# UCP's rendezvous threshold follows the copies hxb reports (estimate_perf):
# over 2 rails the held copy of early frames and the reassembly (the veths
# say 10 Gbit/s each; rendezvous well below 1 MiB); over one such rail
# neither, so 1 MiB stays eager; over one rail faster than a third of
# memcpy (25 Gbit/s said by UCX_HXB_RAIL_SPEED) the reassembly copy
# (rendezvous below 256 KiB; 2.2 MB before it was charged). UCX 1.18's
# protocols v2 print no such line (they send large tag messages by
# zero-copy eager over hxb): not checked there.
rndv_from() {   # NAME ENV...: the smallest rendezvous size UCP chose
    local name=$1; shift
    EXTRA_ENV="HXB_UCP_TEST_EP_INFO=1 $*" ucp_pair "$name" -m 4096 -n 20 -t 60 >&2
    sed -n 's/.*# *tag_send: .*\.\.\([0-9][0-9]*\)\.\.<rndv>.*/\1/p' "$LOG/$name.cli" | head -1
}
r2=$(rndv_from thresh_2rails)
if [ -n "$r2" ]; then
    r1=$(rndv_from thresh_1rail UCX_HXB_RAILS=x0)
    r25=$(rndv_from thresh_25g UCX_HXB_RAILS=x0 UCX_HXB_RAIL_SPEED=25Gbps)
    [ -n "$r1" ] && [ -n "$r25" ] || fail "thresholds: UCP printed no rendezvous size (1 rail '$r1', 25 Gbit/s '$r25')"
    [ "$r2" -lt 524288 ] || fail "thresholds: 2 rails go rendezvous from $r2 bytes (the held copy: below 512 KiB)"
    [ "$r1" -gt 1048576 ] || fail "thresholds: one 10 Gbit/s rail goes rendezvous from $r1 bytes (eager beyond 1 MiB)"
    [ "$r25" -lt 262144 ] || fail "thresholds: one 25 Gbit/s rail goes rendezvous from $r25 bytes (the reassembly copy: below 256 KiB)"
    note "rendezvous from: 2 rails $r2, 1 rail $r1, 1 rail said 25 Gbit/s $r25 bytes"
else
    note "thresholds: UCP prints no tag_send ranges (protocols v2), not checked"
fi
