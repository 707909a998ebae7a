#!/bin/bash
# hxb-capture and the Wireshark dissector (contrib/wireshark/hxb.lua) on a
# 2x2 grid with relays, 1% loss and 0.5% corruption on every rail:
#  - hxb-capture (root: capturing is a privilege) on both rails of n0 while
#    n0 and n3 (no common line: every frame crosses a relay) exchange
#    tagged messages over dual rails (root's, raw and UDP) and over UDP
#    rails (a user's, through the relays' port 885), UCP puts, gets and
#    atomics, and the relays say HELLO;
#  - its counters: 0 dropped, and tshark reads exactly the frames it says
#    it wrote, all of them hxb's;
#  - the dissector: no frame malformed (no Lua error, no exception, none of
#    the experts for what hxb_frame_check rejects as short, version, kind
#    or length); the frames the faults corrupted are flagged as a bad
#    checksum (hxb's or the UDP datagram's), never as malformed; every
#    kind the traffic makes is seen, and relayed frames on each carrier;
#  - short frames (a direct pair, n0 and n1): one frame each to tshark,
#    none malformed, as many frames as hxb-capture counts;
#  - a negative check: frames wrong in one way each (inject_frames.py) are
#    each flagged as that (version, kind, length, checksum).
TNAME=r80
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null || { echo "SKIP: tshark not installed (contrib/setup.sh installs it)"; exit 77; }
[ -x "$HXB_BIN/hxb-capture" ] || { echo "SKIP: hxb-capture not built (libpcap-dev)"; exit 77; }
LUA="$top/contrib/wireshark/hxb.lua"
# udp.check_checksum: the corrupted datagrams (the testbed's node rails
# compute UDP checksums in software while --corrupt is on, so good ones
# carry a complete checksum in the capture)
# ts FILE ARGS...: tshark with the dissector over FILE. As the job user when
# we are root: tshark 4.4 (Debian 13) runs no Lua script as root (4.0 did);
# FILE comes on stdin, since the log directory is root's
TS_AS=()
[ "$(id -u)" != 0 ] || [ "$HXB_TEST_USER" = root ] || TS_AS=(runuser -u "$HXB_TEST_USER" --)
# TS_PREFS: the preferences of the decodes to come
TS_PREFS=(-o udp.check_checksum:TRUE)
ts() {
    local f=$1; shift
    timeout 120 ${TS_AS[@]+"${TS_AS[@]}"} tshark -n -X lua_script:"$LUA" "${TS_PREFS[@]}" -r - "$@" < "$f" 2>/dev/null
}
${TS_AS[@]+"${TS_AS[@]}"} tshark -G fields -X lua_script:"$LUA" 2>/dev/null | grep -q "	hxb\.kind	" ||
    fail "tshark does not load $LUA as $(${TS_AS[@]+"${TS_AS[@]}"} id -un) (tshark 4.4 runs no Lua script as root: HXB_TEST_USER=root cannot run this test there)"

# --csum sw: complete UDP checksums in the capture, also once the faults
# are cleared (the testbed turns it on for --corrupt only while it lasts)
tb_up --grid 2x2 --rails 1 --rate 1gbit --loss 1 --corrupt 0.5 --csum sw
relay_up
CAP=$LOG/n0.pcapng
on n0 "$HXB_BIN/hxb-capture" -w "$CAP" > "$LOG/capture" 2>&1 &
cap=$!
# beside it, two captures of one job's frames (--job: the tag checked under
# the key derived from UCX_HXB_JOB_KEY, as the processes derive it): this
# test's key, and another
on n0 "$HXB_BIN/hxb-capture" --job "$KEY" -w "$LOG/job.pcapng" > "$LOG/capture-job" 2>&1 &
capjob=$!
on n0 "$HXB_BIN/hxb-capture" --job "${KEY}1" -w "$LOG/other.pcapng" > "$LOG/capture-other" 2>&1 &
capother=$!
for f in capture capture-job capture-other; do
    for _ in $(seq 100); do grep -q "capturing on" "$LOG/$f" && break; sleep 0.1; done
    grep -q "capturing on x0 y0 " "$LOG/$f" || fail "hxb-capture did not start on n0's rails: $(cat "$LOG/$f")"
done

SRV=n0 CLI=n3
HXB_TEST_USER=root EXTRA_ENV=UCX_HXB_MODE=dual ucp_pair dual -n 100 -m 300000 -t 60 -s 3
EXTRA_ENV=UCX_HXB_MODE=udp ucp_pair udp -n 100 -m 300000 -t 60 -s 4
# UCP puts, gets and atomics (ucx_perftest, n3 the client), over UDP rails,
# without faults: its atomic latency test stalls for seconds on each loss
"$TB" fault --name "$TNAME" --clear > /dev/null || fail "cannot clear the faults"
perf() {
    local name=$1 port=$((20000 + RANDOM % 20000)) srv; shift
    # shellcheck disable=SC2046,SC2086  # PERFTEST: a command and its options
    on_user n0 timeout 60 $(hxb_env UCX_HXB_MODE=udp) $PERFTEST -p $port "$@" > "$LOG/$name.srv" 2>&1 &
    srv=$!
    wait_listen n0 $port
    # shellcheck disable=SC2046,SC2086
    on_user n3 timeout 60 $(hxb_env UCX_HXB_MODE=udp) $PERFTEST 198.18.0.1 -p $port "$@" > "$LOG/$name.cli" 2>&1 ||
        fail "$name: $(grep -h -i error "$LOG/$name.cli" "$LOG/$name.srv" | head -2)"
    wait $srv || fail "$name: server failed"
}
perf put -t ucp_put_bw -s 65536 -n 50
perf get -t ucp_get -s 8192 -n 200
perf fadd -t ucp_fadd -n 200

# stop_capture NAME: SIGINT to n0's hxb-captures (if still running), which
# read what their rings still hold and print their counters; checks the
# one of $cap ($LOG/NAME) and sets WRITTEN
stop_capture() {
    local total dropped
    node_kill n0 INT hxb-capture || true
    wait "$cap" || fail "hxb-capture: exit $? ($(tail -2 "$LOG/$1"))"
    total=$(grep "total:" "$LOG/$1") || fail "hxb-capture printed no total"
    WRITTEN=$(sed -n 's/.* written=\([0-9]*\).*/\1/p' <<<"$total")
    dropped=$(sed -n 's/.* dropped=\([0-9]*\).*/\1/p' <<<"$total")
    [ "$dropped" = 0 ] || fail "hxb-capture lost $dropped frames (ring full)"
    note "hxb-capture on n0:${total#*total:}"
}
# decode FILE OUT: one tshark pass, a line per frame: number, protocols,
# kinds, carriers, relayed, source nodes, expert messages (lists joined by ,)
decode() {
    ts "$1" -T fields -E occurrence=a -E aggregator=, -e frame.number -e frame.protocols \
        -e hxb.kind -e hxb.carrier -e hxb.relayed -e hxb.src_node -e _ws.expert.message > "$2" ||
        fail "tshark cannot read $1"
}
# what hxb_frame_check rejects as malformed, as the dissector words it, and
# Wireshark's own malformed-packet and Lua-error experts
MALFORMED='Shorter than|Unknown version|Invalid kind|Length field disagrees|Bundle record|Malformed|Lua Error'
stop_capture capture
cap=$capjob stop_capture capture-job
job=$WRITTEN
cap=$capother stop_capture capture-other
[ "$WRITTEN" = 0 ] || fail "--job with another key kept $WRITTEN frames"
decode "$LOG/job.pcapng" "$LOG/job"
if [ "$job" -le 1000 ] || [ "$(wc -l < "$LOG/job")" != "$job" ]; then
    fail "--job $KEY kept $job frames (tshark reads $(wc -l < "$LOG/job"))"
fi
# the relays' HELLOs carry the cluster key's tags, not the job's
! cut -f3 "$LOG/job" | grep -qw 20 || fail "--job kept a HELLO"
note "--job: $job frames of the job kept, none of the relays', none under another key"
WRITTEN=$(sed -n 's/.*total:.* written=\([0-9]*\).*/\1/p' "$LOG/capture")
[ "${WRITTEN:-0}" -gt 1000 ] || fail "hxb-capture wrote only ${WRITTEN:-0} frames"
decode "$CAP" "$LOG/fields"
seen=$(wc -l < "$LOG/fields")
[ "$seen" = "$WRITTEN" ] || fail "tshark reads $seen frames, hxb-capture says it wrote $WRITTEN"
n=$(awk -F'\t' '$2 !~ /(^|:)hxb(:|$)/' "$LOG/fields" | wc -l)
[ "$n" = 0 ] || fail "$n frames of the capture are not hxb's: $(awk -F'\t' '$2 !~ /hxb/' "$LOG/fields" | head -2)"
bad=$(awk -F'\t' -v re="$MALFORMED" '$7 ~ re' "$LOG/fields" | wc -l)
[ "$bad" = 0 ] || fail "$bad frames malformed, e.g. $(awk -F'\t' -v re="$MALFORMED" '$7 ~ re' "$LOG/fields" | head -2)"
csum=$(awk -F'\t' '$7 ~ /Bad checksum|Bad UDP checksum/' "$LOG/fields" | wc -l)
[ "$csum" -gt 0 ] || fail "no frame flagged as corrupted, under 0.5% corruption of $seen frames"
# every kind the traffic must make: AM, PUT, GET_REQ, GET_RESP, ATOMIC,
# ACK, HELLO (PING, PONG, ERR and NOP come only with suspicion, refusals
# and cancels)
# (not those of damaged datagrams: their fields are damage)
kinds=" $(awk -F'\t' '$7 !~ /Bad UDP checksum/ {print $3}' "$LOG/fields" | tr ',' '\n' | sort -un | tr '\n' ' ')"
for k in 1:AM 2:PUT 3:GET_REQ 4:GET_RESP 6:ATOMIC 16:ACK 20:HELLO; do
    [[ "$kinds" == *" ${k%:*} "* ]] || fail "no ${k#*:} frame seen (kinds:$kinds)"
done
carriers=" $(cut -f4 "$LOG/fields" | tr ',' '\n' | sort -u | tr '\n' ' ')"
for c in raw relay; do
    [[ "$carriers" == *" $c "* ]] || fail "no frame carried by $c (carriers:$carriers)"
done
relayed=$(awk -F'\t' '$5 ~ /(^|,)(1|True)(,|$)/' "$LOG/fields" | wc -l)
[ "$relayed" -gt 0 ] || fail "no relayed frame seen"
note "tshark: $seen frames, kinds$kinds, carriers$carriers, $relayed relayed, $csum flagged corrupted, none malformed"

# short frames (PROTOCOL.md 3.1): n0 and n1 share line x, so a user's job
# between them sends its later fragments short (straight to the peer);
# captured on n0's x0, each is one frame to tshark (no length field: the
# train's segment size), none malformed, as many as hxb-capture counts
CAP=$LOG/short.pcapng
on n0 "$HXB_BIN/hxb-capture" -i x0 -w "$CAP" > "$LOG/capture-short" 2>&1 &
cap=$!
for _ in $(seq 100); do grep -q "capturing on" "$LOG/capture-short" && break; sleep 0.1; done
SRV=n0 CLI=n1 EXTRA_ENV=UCX_HXB_MODE=udp ucp_pair short -n 50 -m 300000 -t 60 -s 5
[ "$(stat "$LOG/short.srv" rx_short)" -gt 0 ] || fail "short: no short frame reached n0"
stop_capture capture-short
frames=$(sed -n 's/.*total:.* frames=\([0-9]*\).*/\1/p' "$LOG/capture-short")
ts "$CAP" -T fields -E occurrence=a -E aggregator=, -e hxb.kind -e hxb.short \
    -e _ws.expert.message > "$LOG/short" || fail "tshark cannot read $CAP"
seen=$(cut -f1 "$LOG/short" | tr ',' '\n' | grep -c .)
nshort=$(cut -f2 "$LOG/short" | tr ',' '\n' | grep -cE '^(1|True)$')
[ "$seen" = "$frames" ] || fail "short: tshark reads $seen frames, hxb-capture counted $frames"
[ "$nshort" -gt 0 ] || fail "short: tshark saw no short frame in $seen"
bad=$(awk -F'\t' -v re="$MALFORMED" '$3 ~ re' "$LOG/short" | wc -l)
[ "$bad" = 0 ] || fail "short: $bad packets malformed, e.g. $(awk -F'\t' -v re="$MALFORMED" '$3 ~ re' "$LOG/short" | head -1)"
note "short frames: $nshort of $seen frames on n0's x0 short, none malformed"

# negative: 5 each of inject_frames.py's frames (source node 999) into
# n0's x0 (faults off), as raw frames and as UDP datagrams to port 40000,
# captured there and each flagged as what it is; the 10 with a wrong tag
# pass (the dissector does not know the job's key). --ports and
# hxb.udp_ports: every datagram to that port is hxb's, whatever its version
CAP=$LOG/bad.pcapng
on n0 "$HXB_BIN/hxb-capture" -i x0 --ports 40000-40000 -w "$CAP" > "$LOG/capture-bad" 2>&1 &
cap=$!
for _ in $(seq 100); do grep -q "capturing on" "$LOG/capture-bad" && break; sleep 0.1; done
for dst in x0 "udp:$(iface_ip n0 x0)"; do
    on n1 python3 "$top/test/integration/inject_frames.py" "$dst" "$(iface_mac n0 x0)" 0 40000 $KEY 5 \
        > "$LOG/inject" 2>&1 || fail "injector: $(cat "$LOG/inject")"
done
sleep 0.5
stop_capture capture-bad
TS_PREFS=(-o hxb.udp_ports:40000)
decode "$CAP" "$LOG/bad"
for c in raw udp; do
    for e in "Unknown version" "Invalid kind" "Length field disagrees" "Bad checksum"; do
        n=$(awk -F'\t' -v e="$e" -v c="$c" '$6 == "999" && $4 == c && index($7, e)' "$LOG/bad" | wc -l)
        [ "$n" = 5 ] || fail "$n injected $c frames flagged '$e', 5 injected"
    done
    n=$(awk -F'\t' -v c="$c" '$6 == "999" && $4 == c && $7 !~ /Unknown version|Invalid kind|Length field|Bad checksum/' "$LOG/bad" | wc -l)
    [ "$n" = 10 ] || fail "$n injected $c frames not flagged, expected the 10 with a wrong tag"
done
note "injected, raw and UDP: 5 each flagged version, kind, length, checksum; the 10 with a wrong tag pass"
